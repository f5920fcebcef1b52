/// What `crates delete` says of the copies it deleted that are still in the Discogs
/// collection (a copy `crates sync` had linked stays there until removed).
extension CopyDeletion.Outcome {
    /// "1 copy deleted here is", "3 copies deleted here are": the subject of each sentence.
    private var stillThere: String {
        onDiscogs.count == 1 ? "1 copy deleted here is" : "\(onDiscogs.count) copies deleted here are"
    }

    private var them: String { onDiscogs.count == 1 ? "it" : "them" }

    /// Said when no one can be asked (standard input is not a terminal).
    public var stillOnDiscogsNotice: String {
        "\(stillThere) still in your Discogs collection: `crates sync --delete` removes \(them) there"
    }

    /// The question asked at a terminal, in two parts: the fact, then the question (the
    /// "(y/N)" is the command's).
    public var stillOnDiscogsQuestion: (fact: String, question: String) {
        ("\(stillThere) still in your Discogs collection.", "Remove \(them) from Discogs too?")
    }

    /// Said after a no.
    public var keptOnDiscogs: String {
        "Kept on Discogs: `crates sync --delete` removes \(them) there later."
    }
}
