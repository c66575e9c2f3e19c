# testdata/run/go copied to a scratch folder, Go 1.26:
go test -json -count=1 ./... > gotest.json
