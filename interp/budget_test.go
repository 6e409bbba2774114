package interp

import (
	"encoding/json"
	"testing"
	"time"
)

// TestTripJSON: the timeout's limit is in seconds in JSON, the others in
// their own unit, and both read back.
func TestTripJSON(t *testing.T) {
	for _, c := range []struct {
		trip Trip
		want string
	}{
		{Trip{Name: BudgetTime, Limit: int64(30 * time.Second)}, `{"name":"timeout","limit":30}`},
		{Trip{Name: BudgetTime, Limit: int64(1500 * time.Millisecond)}, `{"name":"timeout","limit":1.5}`},
		{Trip{Name: BudgetCommands, Limit: 100000}, `{"name":"commands","limit":100000}`},
	} {
		got, err := json.Marshal(&c.trip)
		if err != nil || string(got) != c.want {
			t.Errorf("%+v: %s %v, want %s", c.trip, got, err, c.want)
		}
		var back Trip
		if err := json.Unmarshal(got, &back); err != nil || back != c.trip {
			t.Errorf("%s read back as %+v %v", got, back, err)
		}
	}
}
