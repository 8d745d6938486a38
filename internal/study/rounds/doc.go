// Package rounds holds how many rounds a study file asks for: the adaptive
// rule's precision and most rounds (Adaptive), the bounds on repetitions, and
// the time budget (Budget, ParseBudget).
//
// They are values of a study file that need nothing of study, so they sit
// below it (study names Budget and the bounds again for the cli's flags),
// where a package that parses study files without study can import them too.
package rounds
