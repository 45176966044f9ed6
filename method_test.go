package daybook

import (
	"encoding/json"
	"testing"
)

// A method goes over the wire as the one string clients have always read,
// and comes back as the same value; an unknown start is an error naming it.
func TestMethodRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		m    Method
		wire string
	}{
		{Method{Start: MethodDrill}, `"drill"`},
		{Method{Start: MethodDrill, Linear: true}, `"drill+linear"`},
		{Method{Start: MethodDays, Outside: true}, `"days+outside"`},
		{Method{Start: MethodMonths, Linear: true, Outside: true}, `"months+linear+outside"`},
		{Method{Start: MethodBM25, VectorsOff: true}, `"bm25 (vectors off: the embedder is unavailable; ranked by text alone)"`},
		{Method{Start: MethodNone}, `"none"`},
	} {
		b, err := json.Marshal(tc.m)
		if err != nil || string(b) != tc.wire {
			t.Errorf("%+v marshals to %s (%v), want %s", tc.m, b, err, tc.wire)
		}
		var back Method
		if err := json.Unmarshal(b, &back); err != nil || back != tc.m {
			t.Errorf("%s unmarshals to %+v (%v), want %+v", b, back, err, tc.m)
		}
	}
	var m Method
	if err := json.Unmarshal([]byte(`"guess"`), &m); err == nil {
		t.Error(`"guess" unmarshalled without an error`)
	}
}
