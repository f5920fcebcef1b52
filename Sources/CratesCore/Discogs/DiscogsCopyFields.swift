/// What crates reads from one instance's custom field values.
public struct DiscogsCopyFields: Hashable, Sendable {
    public var media: MediaCondition?
    public var sleeve: SleeveCondition?
    /// The "Notes" text: line breaks kept (as LF), other control characters removed.
    public var notes: String?
    /// Condition values that are not Discogs grades (a field edited by hand, a renamed
    /// option): kept so that a sync can report them instead of dropping them silently.
    public var unrecognized: [DiscogsInstanceNote] = []

    public init(media: MediaCondition? = nil, sleeve: SleeveCondition? = nil, notes: String? = nil, unrecognized: [DiscogsInstanceNote] = []) {
        self.media = media
        self.sleeve = sleeve
        self.notes = notes
        self.unrecognized = unrecognized
    }

    /// A textarea's text made safe for a terminal while keeping its lines: CRLF and CR
    /// become LF, a tab a space, other C0 controls, DEL and C1 controls are removed.
    public static func cleanNotes(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar.value {
            case 0x0D: out.append("\n")
            case 0x0A where previousWasCR: continue
            case 0x0A: out.append("\n")
            case 0x09: out.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
