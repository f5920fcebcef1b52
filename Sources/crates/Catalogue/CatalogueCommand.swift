import ArgumentParser

/// `crates catalogue`: Discogs' releases on this machine, from its monthly data dump.
struct CatalogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogue",
        abstract: "Discogs' releases on this machine, from its monthly data dump.",
        subcommands: [CatalogueFetchCommand.self])
}
