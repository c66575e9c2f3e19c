module example.com/reportbuild

go 1.22
