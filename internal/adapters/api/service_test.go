package api_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/daybook/daybook"
)

// TestEveryOperationIsServed checks that the server answers each method of
// the Service at /v1/<name>: a method added to the contract without a route
// would leave the socket client calling a 404.
func TestEveryOperationIsServed(t *testing.T) {
	f := serve(t, newApp(t))
	svc := reflect.TypeFor[daybook.Service]()
	for i := range svc.NumMethod() {
		name := svc.Method(i).Name
		path := "/v1/" + strings.ToLower(name)
		body := "{}"
		if name == "Import" {
			body = ""
		}
		status, _, msg := f.raw(t, "POST", path, body)
		if status == 404 || status == 405 {
			t.Errorf("%s: POST %s answered %d %q", name, path, status, msg)
		}
	}
}
