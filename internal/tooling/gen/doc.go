// Package gen writes a realistic, deterministic, multi-year daybook corpus for
// tests and benchmarks: day files in exactly the format dayfiles reads and
// remember writes, with quiet weekends, vacations, people and projects that
// come and go, topics that drift, a skewed #tag vocabulary, free-text notes,
// and planted facts listed in facts.jsonl with the questions that should
// recall them.
//
// The same Options give byte-identical output: every random choice comes from
// a PCG source seeded from Options.Seed, nothing reads the clock, and no map
// is iterated.
package gen
