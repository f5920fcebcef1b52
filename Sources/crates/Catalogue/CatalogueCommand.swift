import ArgumentParser

/// `crates catalogue`: Discogs' releases, from its monthly data dump, kept on this machine.
struct CatalogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Build and inspect the local copy of Discogs' catalogue (its monthly data dump).",
        discussion: """
            The catalogue is a read-only copy of every release Discogs lists, built from the \
            releases data dump it publishes each month (CC0): barcodes, catalogue numbers, \
            artist and title, found with no request to Discogs, offline and without an \
            account. It is one SQLite file of its own, beside the collection.

            Where it is: --catalogue PATH, else $CRATES_CATALOGUE, else \
            $XDG_DATA_HOME/crates/discogs-catalogue.sqlite.

            Examples:
              crates catalogue fetch
              crates catalogue build ~/Downloads/discogs_20260601_releases.xml.gz
              crates catalogue status
            """,
        subcommands: [
            CatalogueBuildCommand.self, CatalogueFetchCommand.self, CatalogueStatusCommand.self, CatalogueRemoveCommand.self,
        ])
}
