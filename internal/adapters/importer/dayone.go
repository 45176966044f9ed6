package importer

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// dayOneFormat reads a Day One JSON export: the .zip as downloaded, the
// unzipped folder (every *.json at its top, one per journal), or one
// journal's JSON file.
type dayOneFormat struct{}

func (dayOneFormat) Read(path string, _ Options) (Result, error) {
	var res Result
	files, err := exportFiles(path, func(base string) bool { return strings.EqualFold(filepath.Ext(base), ".json") })
	if err != nil {
		return res, fmt.Errorf("reading Day One export: %w", err)
	}
	if len(files) == 0 {
		return res, fmt.Errorf("reading Day One export: no *.json journal in %s", path)
	}
	for _, f := range files {
		if err := readDayOneFile(f.name, f.data, &res); err != nil {
			return res, err
		}
	}
	return res, nil
}

func readDayOneFile(path string, b []byte, res *Result) error {
	var in struct {
		Entries []json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("reading Day One export: %w", jsonError(path, b, err))
	}
	if in.Entries == nil {
		return fmt.Errorf("reading Day One export %s: no \"entries\" list", path)
	}
	for i, raw := range in.Entries {
		from := fmt.Sprintf("%s: entry %d", path, i+1)
		var e struct {
			CreationDate string   `json:"creationDate"`
			Text         string   `json:"text"`
			Tags         []string `json:"tags"`
			Starred      bool     `json:"starred"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			res.skip(from, WhyMalformed, "not a Day One entry: %v", jsonWhat(err))
			continue
		}
		if e.CreationDate == "" {
			res.skip(from, WhyNoTime, "no creationDate")
			continue
		}
		at, err := time.Parse(time.RFC3339, e.CreationDate)
		if err != nil {
			res.skip(from, WhyBadTime, "creationDate %q is not an RFC 3339 time", e.CreationDate)
			continue
		}
		text := strings.TrimSpace(e.Text)
		if text == "" {
			res.skip(from, WhyNoText, "the entry has no text (photos or audio only)")
			continue
		}
		var tags []string
		for _, t := range append(e.Tags, starredTag(e.Starred)...) {
			if t = Tag(t); t != "" && !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
		res.Entries = append(res.Entries, Entry{At: at, Text: text, Tags: tags, From: from})
	}
	return nil
}

func starredTag(starred bool) []string {
	if starred {
		return []string{"starred"}
	}
	return nil
}
