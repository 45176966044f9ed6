package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"unicode/utf8"
)

// inputError is where a source file broke: "path:line:column: what".
type inputError struct {
	Path      string
	Line, Col int // 0 when not known
	Err       error
	Hint      string // what the user may do, or ""
}

// Where is "path:line:column", or the path alone.
func (e *inputError) Where() string {
	if e.Line == 0 {
		return e.Path
	}
	return fmt.Sprintf("%s:%d:%d", e.Path, e.Line, e.Col)
}

// What is the error and its hint, without where.
func (e *inputError) What() string {
	if e.Hint != "" {
		return e.Err.Error() + " (" + e.Hint + ")"
	}
	return e.Err.Error()
}

func (e *inputError) Error() string { return e.Where() + ": " + e.What() }
func (e *inputError) Unwrap() error { return e.Err }

// jsonError returns err, met decoding the JSON b read from path, as an
// inputError naming the line and column where b broke: encoding/json
// gives only a byte offset.
func jsonError(path string, b []byte, err error) error {
	ie := &inputError{Path: path, Err: err}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off := int(syn.Offset) - 1 // the error came after reading Offset bytes: the last one is at fault
		if syn.Error() == "unexpected end of JSON input" {
			off, ie.Hint = len(b), "the file ends before its JSON does: cut short?"
		}
		ie.Line, ie.Col = lineCol(b, off)
	case errors.As(err, &typ):
		ie.Line, ie.Col = lineCol(b, int(typ.Offset)-1)
		ie.Err = jsonWhat(err)
	}
	return ie
}

// jsonWhat is err from encoding/json said without Go's types: "a JSON
// object, not a list", "\"entries\" is a JSON string, not a list".
func jsonWhat(err error) error {
	var typ *json.UnmarshalTypeError
	if !errors.As(err, &typ) {
		return err
	}
	want := "a value of another kind"
	if typ.Type != nil {
		switch typ.Type.Kind() {
		case reflect.Slice, reflect.Array:
			want = "a list"
		case reflect.Struct, reflect.Map:
			want = "an object"
		case reflect.String:
			want = "a string"
		case reflect.Bool:
			want = "true or false"
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
			reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			want = "a number"
		}
	}
	if typ.Field != "" {
		return fmt.Errorf("%q is a JSON %s, not %s", typ.Field, typ.Value, want)
	}
	return fmt.Errorf("a JSON %s, not %s", typ.Value, want)
}

// lineCol is the 1-based line and column (in characters) of byte off of b.
func lineCol(b []byte, off int) (line, col int) {
	off = min(max(off, 0), len(b))
	start := bytes.LastIndexByte(b[:off], '\n') + 1
	return bytes.Count(b[:off], []byte{'\n'}) + 1, utf8.RuneCount(b[start:off]) + 1
}
