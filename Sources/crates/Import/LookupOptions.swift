import ArgumentParser

/// `--no-lookup`, shared (like `--db`) by the collection UI and `crates import`: one option
/// group of one type, which ArgumentParser decodes for the root command and hands on to the
/// subcommand. A flag of the same name declared in both would be taken by the root alone.
struct LookupOptions: ParsableArguments {
    @Flag(help: "Do not look records up on Discogs now: they wait in the queue for later.")
    var noLookup = false

    /// `--catalogue PATH`.
    @OptionGroup var catalogue: CatalogueOption
}
