package importer

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// exportFile is one file of an export, read whole.
type exportFile struct {
	name string // as reports name it: the path, or zip path/member
	data []byte
}

// maxExportFile is the largest file of an export read (a ChatGPT history of
// years is a few hundred MB).
const maxExportFile = 2 << 30

// exportFiles reads the files of an export at p that match wants (given a
// file's base name): p itself when it is a plain file; the matching files
// at the top of a folder; the matching members of a .zip, as the export
// was downloaded, at any depth.
func exportFiles(p string, wants func(base string) bool) ([]exportFile, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	switch {
	case st.IsDir():
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var out []exportFile
		for _, e := range entries {
			if e.Type().IsRegular() && wants(e.Name()) {
				f := filepath.Join(p, e.Name())
				b, err := os.ReadFile(f)
				if err != nil {
					return nil, err
				}
				out = append(out, exportFile{f, b})
			}
		}
		return out, nil
	case strings.EqualFold(filepath.Ext(p), ".zip"):
		return zipFiles(p, wants)
	default:
		b, err := os.ReadFile(p)
		return []exportFile{{p, b}}, err
	}
}

func zipFiles(p string, wants func(string) bool) ([]exportFile, error) {
	z, err := zip.OpenReader(p)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	var out []exportFile
	for _, m := range z.File {
		base := path.Base(m.Name)
		if m.FileInfo().IsDir() || strings.HasPrefix(m.Name, "__MACOSX/") || !wants(base) {
			continue
		}
		if m.UncompressedSize64 > maxExportFile {
			return nil, fmt.Errorf("%s/%s: %d bytes is too large to read", p, m.Name, m.UncompressedSize64)
		}
		r, err := m.Open()
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", p, m.Name, err)
		}
		b, err := io.ReadAll(io.LimitReader(r, maxExportFile))
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", p, m.Name, err)
		}
		out = append(out, exportFile{p + "/" + m.Name, b})
	}
	return out, nil
}
