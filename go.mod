module github.com/daybook/daybook

go 1.26.8

require (
	github.com/robfig/cron/v3 v3.0.1
	github.com/yuin/goldmark v1.8.7
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.49.0
)
