module pigclass

go 1.26.8
