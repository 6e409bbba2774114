package textio

import "bytes"

// Files0 splits the content of a --files0-from file into its names: each
// ends at a NUL, and the last one also at the end of the data (so no empty
// name follows a final NUL). An empty name inside stays, for the caller to
// report.
func Files0(data []byte) []string {
	var names []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, 0)
		if i < 0 {
			return append(names, string(data))
		}
		names = append(names, string(data[:i]))
		data = data[i+1:]
	}
	return names
}
