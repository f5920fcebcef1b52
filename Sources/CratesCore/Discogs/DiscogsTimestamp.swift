import Foundation

/// The timestamps Discogs' collection sends (`date_added`): RFC 3339 section 5.6 date-times
/// with a numeric offset, e.g. "2022-07-28T04:28:27-07:00" (Discogs writes them in its
/// own Pacific time). Read without a locale or a time-zone database, through
/// `UTCTimestamp`'s calendar arithmetic.
public enum DiscogsTimestamp {
    /// The instant `text` names: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of a second
    /// (dropped), then `Z` or an offset `±HH:MM` (`±HHMM` too). Nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            let local = UTCTimestamp.parse(String(decoding: bytes[0..<19], as: UTF8.self))
        else { return nil }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        let zone = Array(bytes[index...])
        if zone == [UInt8(ascii: "Z")] || zone == [UInt8(ascii: "z")] { return local }
        guard zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-") else { return nil }
        let digits: [UInt8]
        switch zone.count {
        case 6 where zone[3] == UInt8(ascii: ":"): digits = [zone[1], zone[2], zone[4], zone[5]]
        case 5: digits = Array(zone[1...4])
        default: return nil
        }
        guard digits.allSatisfy(isDigit) else { return nil }
        let hours = Int(digits[0] - 0x30) * 10 + Int(digits[1] - 0x30)
        let minutes = Int(digits[2] - 0x30) * 10 + Int(digits[3] - 0x30)
        guard hours < 24, minutes < 60 else { return nil }
        let offset = Double((hours * 60 + minutes) * 60)
        // Local time = UTC + offset, so UTC = local time - offset (RFC 3339 section 4.2).
        return local.addingTimeInterval(zone[0] == UInt8(ascii: "+") ? -offset : offset)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
