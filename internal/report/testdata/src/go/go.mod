module example.com/reportfixture

go 1.22
