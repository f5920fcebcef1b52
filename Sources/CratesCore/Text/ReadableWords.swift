/// Readable words for the values of the tab-separated lines.
public enum ReadableWords {
    /// A lookup state as a person says it: "not found", "by hand"; matched shows nothing.
    public static func state(_ raw: String) -> String {
        switch raw {
        case "matched": ""
        case "notFound": "not found"
        case "lookingUp": "looking up"
        case "handEntered": "by hand"
        case "pending": "waiting"
        default: raw
        }
    }

    /// An ISO 8601 time as its date: "2026-11-26".
    public static func date(_ raw: String) -> String {
        String(raw.prefix(10))
    }
}
