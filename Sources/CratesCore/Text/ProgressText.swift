/// The pieces every progress line is made of (an import's, a sync's, a download's, a
/// catalogue build's), so that they all read alike.
public enum ProgressText {
    /// `[#####---------------]`: `done` of `total` in `width` cells.
    public static func bar(_ done: Int, _ total: Int, width: Int) -> String {
        let filled = total > 0 ? max(0, min(width, done * width / total)) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    /// "45 s", "12 min", "3 h 20 min".
    public static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s) s" }
        let minutes = (s + 59) / 60
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h \(minutes % 60) min"
    }
}
