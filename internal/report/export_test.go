package report

// What the tests of package report_test (the HTML page, which package page
// renders and which imports this package) build their reports from.
var (
	Fixtures  = fixtures
	Fixture   = fixture
	Factorial = factorial
)
