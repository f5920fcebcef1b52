/// A cover the collection UI asks for (`SessionRequest.cover`), and the key its answer
/// (`SessionEvent.cover`) comes back under: whose cover, drawn in how many cells, in which
/// colours. A cover drawn for one size is not shown at another.
public struct CoverRequest: Hashable, Sendable {
    /// A record's cover is its release's; a pressing in the picker has a release and, from
    /// the search that found it, the address of its image.
    public enum Subject: Hashable, Sendable {
        case record(Int64)
        case release(Int, url: String?)
    }

    public var subject: Subject
    public var columns: Int
    public var rows: Int
    public var colours: CoverColours

    public init(subject: Subject, columns: Int, rows: Int, colours: CoverColours) {
        self.subject = subject
        self.columns = columns
        self.rows = rows
        self.colours = colours
    }
}
