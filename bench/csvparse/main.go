// Command csvparse is bench/analyze-14m.sh's bare parse: it reads a CSV
// with the analysis's own reader (analysis.ScanCSV: lines, fields, the
// responses' numbers) and keeps nothing, so the script can put the full
// analysis's time over the time reading the file costs.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/boxtax/boxtax/internal/analysis"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: csvparse FILE RESPONSE[,RESPONSE...]")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	rows, err := analysis.ScanCSV(f, strings.Split(os.Args[2], ","))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(rows, "rows")
}
