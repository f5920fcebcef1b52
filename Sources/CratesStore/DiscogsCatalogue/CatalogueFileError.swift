/// Why a catalogue could not be built, opened or removed, in words a person can act on.
public enum CatalogueFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No catalogue at `path`.
    case none(path: String)
    /// The file is there but is no catalogue crates can read.
    case unreadable(path: String, reason: String)
    /// The build cannot write where the catalogue goes.
    case cannotWrite(path: String, reason: String)
    /// Not enough free space for the build.
    case noSpace(directory: String, needed: Int64, available: Int64)
    /// Another build of the same catalogue is under way.
    case buildUnderWay(path: String)

    public var description: String {
        switch self {
        case let .none(path):
            "There is no Discogs catalogue at \(path); build one with `crates catalogue build FILE`."
        case let .unreadable(path, reason):
            "The Discogs catalogue \(path) cannot be read: \(reason)."
        case let .cannotWrite(path, reason):
            "Cannot build the Discogs catalogue \(path): \(reason)."
        case let .noSpace(directory, needed, available):
            "Not enough free space in \(directory) to build the catalogue: it needs about "
                + "\(ByteCount.text(needed)), and \(ByteCount.text(available)) are free."
        case let .buildUnderWay(path):
            "Another build of the Discogs catalogue \(path) is under way; wait for it to end."
        }
    }
}

/// Sizes as people read them: "1.4 GB", "312 MB", "12 kB" (powers of 1000, as disks are sold).
public enum ByteCount {
    public static func text(_ bytes: Int64) -> String {
        let units = ["bytes", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(bytes) bytes" }
        return value < 10 ? "\(String(format: "%.1f", value)) \(units[unit])" : "\(Int(value.rounded())) \(units[unit])"
    }
}
