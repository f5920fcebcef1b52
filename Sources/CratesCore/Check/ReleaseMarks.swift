/// What the collection holds of a release, wherever a release is listed (the picker, search
/// results, `crates lookup` and `crates search`, the details): how many copies, where the
/// first is and in what grade, and whether it is on the wantlist.
public struct ReleaseMarks: Hashable, Sendable {
    public var copies: Int
    /// The first copy's place ("Room › Shelf"); nil: in no place (or no copy).
    public var place: String?
    /// The first copy's grades ("VG+/VG"); nil: not graded.
    public var grade: String?
    public var wanted: Bool

    public init(copies: Int = 0, place: String? = nil, grade: String? = nil, wanted: Bool = false) {
        self.copies = copies
        self.place = place
        self.grade = grade
        self.wanted = wanted
    }

    /// Neither owned nor wanted: nothing to mark.
    public var isEmpty: Bool { copies == 0 && !wanted }

    /// "owned (Room › Shelf, VG+/VG)", "owned ×2 (Room › Shelf)", "wanted", "owned · wanted";
    /// nil when there is nothing to say.
    public var text: String? {
        var parts: [String] = []
        if copies > 0 {
            let facts = [place, grade].compactMap { $0 }
            parts.append("owned" + (copies > 1 ? " ×\(copies)" : "") + (facts.isEmpty ? "" : " (\(facts.joined(separator: ", ")))"))
        }
        if wanted { parts.append("wanted") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
