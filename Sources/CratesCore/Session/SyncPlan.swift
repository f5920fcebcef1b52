/// What the first sync with a Discogs account would do, worked out by a dry run before it
/// is let loose: a collection's first sync may add hundreds of copies to a folder the
/// person never chose, so the collection UI asks before any of it is written.
public struct SyncPlan: Equatable, Sendable {
    /// Copies crates would add to Discogs, and the folder's name they would go to.
    public var push: Int
    public var folder: String
    /// Instances Discogs has that would become copies here.
    public var pull: Int
    public var conflicts: Int

    public init(push: Int, folder: String, pull: Int, conflicts: Int) {
        self.push = push
        self.folder = folder
        self.pull = pull
        self.conflicts = conflicts
    }

    /// "First sync: push 121 copies to Uncategorized, pull 13, 1 conflict: go?" (without
    /// "(y/N)").
    public var question: String {
        let copies = push == 1 ? "1 copy" : "\(NumberText.grouped(push)) copies"
        let conflicts = conflicts == 1 ? "1 conflict" : "\(NumberText.grouped(conflicts)) conflicts"
        return "First sync: push \(copies) to \(ControlCharacters.cleaned(folder)), pull \(NumberText.grouped(pull)), \(conflicts): go?"
    }

    /// What the status line says after a no.
    public static let declined = "Not synced: nothing sent to Discogs, nothing changed here"
}
