// Package report turns a study's stored samples into what people read: the
// overhead table in the seed studies' layout (native as mean (std), every
// other environment as % deviation from native (std)), markdown, tidy CSV,
// and JSON in the boxtax.report/v1 schema. Formats register by name.
package report
