module example.com/runfixture

go 1.22
