module gb
go 1.22
