package cli

// dbDefaultHelp is how every --db flag's help names its default.
const dbDefaultHelp = "default $BOXTAX_DB, else boxtax.db"

// defaultDB is the database a --db flag defaults to: $BOXTAX_DB if set,
// else boxtax.db in the current directory.
func defaultDB(g *Globals) string {
	if g.Getenv != nil {
		if db := g.Getenv("BOXTAX_DB"); db != "" {
			return db
		}
	}
	return "boxtax.db"
}
