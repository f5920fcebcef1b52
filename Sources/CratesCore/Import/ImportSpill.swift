import Foundation
import Synchronization

/// Where `ImportEntries` keeps the bytes of its rows' extras (note, date, place, grading,
/// the collector's values, a description), so that a million-row CSV is not a million rows
/// in memory. Append-only: a place once given stays valid, so copies of an `ImportEntries`
/// may share one spill.
///
/// A place is the bytes' offset and length in one integer (`place(offset:length:)`), never 0.
public protocol ImportSpill: AnyObject, Sendable {
    /// Keeps `bytes` (1 byte to 1 MB) and returns where they are.
    func append(_ bytes: [UInt8]) -> UInt64
    /// The bytes kept at `place`; empty when they cannot be read back (then `failure` says why).
    func read(_ place: UInt64) -> [UInt8]
    /// Why bytes could not be read back, once that happened.
    var failure: String? { get }
}

extension ImportSpill {
    /// `offset` (up to 2^44) and `length` (1 to 2^20 - 1) as one place.
    public static func place(offset: UInt64, length: Int) -> UInt64 { offset << 20 | UInt64(length) }
    public static func offset(of place: UInt64) -> UInt64 { place >> 20 }
    public static func length(of place: UInt64) -> Int { Int(place & 0xF_FFFF) }
}

/// A spill in memory: for tests and small files (`ImportFile.parse`).
public final class MemorySpill: ImportSpill {
    private let bytes = Mutex<[UInt8]>([])

    public init() {}

    public func append(_ new: [UInt8]) -> UInt64 {
        bytes.withLock { bytes in
            let offset = UInt64(bytes.count)
            bytes.append(contentsOf: new)
            return Self.place(offset: offset, length: new.count)
        }
    }

    public func read(_ place: UInt64) -> [UInt8] {
        let offset = Int(Self.offset(of: place))
        let length = Self.length(of: place)
        return bytes.withLock { bytes in
            guard offset + length <= bytes.count else { return [] }
            return Array(bytes[offset..<offset + length])
        }
    }

    public var failure: String? { nil }
}

/// An entry's extras as bytes: a byte of flags, the rating (its low 3 bits; the bits above
/// flag a purchase, a loan and the location's codes), then each value present, in the
/// flags' order; the location's codes are a text of place ids joined by ",". A text is its
/// UTF-8 length (LEB128) and bytes; a date the bit pattern of its seconds since 1970; a set
/// of record fields a byte saying which, then their texts; a purchase or a loan a byte
/// saying which of its parts, then their texts.
enum ExtrasCodec {
    private static let note: UInt8 = 1, addedAt: UInt8 = 2, location: UInt8 = 4, described: UInt8 = 8
    private static let media: UInt8 = 16, sleeve: UInt8 = 32, collector: UInt8 = 64, handEntered: UInt8 = 128
    /// In the rating's byte.
    private static let ratingBits: UInt8 = 7, purchase: UInt8 = 8, loan: UInt8 = 16, locationCodes: UInt8 = 32

    /// Nil when the entry has no extras.
    static func encode(_ entry: ImportEntry) -> [UInt8]? {
        var flags: UInt8 = 0
        if entry.note != nil { flags |= note }
        if entry.addedAt != nil { flags |= addedAt }
        if entry.location != nil { flags |= location }
        if entry.described != nil { flags |= described }
        if entry.grading.media != nil { flags |= media }
        if entry.grading.sleeve != nil { flags |= sleeve }
        if entry.collector != nil { flags |= collector }
        if entry.handEntered { flags |= handEntered }
        var second = UInt8(clamping: entry.grading.rating.value) & ratingBits
        if !entry.purchase.isEmpty { second |= purchase }
        if entry.loan != nil { second |= loan }
        if !entry.locationCodes.isEmpty { second |= locationCodes }
        guard flags != 0 || second != 0 else { return nil }
        var bytes: [UInt8] = [flags, second]
        if let text = entry.note { append(text, to: &bytes) }
        if let date = entry.addedAt {
            var bits = date.timeIntervalSince1970.bitPattern
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }
        if let text = entry.location { append(text, to: &bytes) }
        if let fields = entry.described { append(fields, to: &bytes) }
        if let value = entry.grading.media { append(value.rawValue, to: &bytes) }
        if let value = entry.grading.sleeve { append(value.rawValue, to: &bytes) }
        if let fields = entry.collector { append(fields, to: &bytes) }
        if !entry.purchase.isEmpty {
            let paid = entry.purchase
            append([paid.price.map(MoneyAmount.text), paid.currency, paid.date, paid.from], to: &bytes)
        }
        if let lent = entry.loan { append([lent.to, lent.since, lent.returned], to: &bytes) }
        if !entry.locationCodes.isEmpty { append(entry.locationCodes.map(String.init).joined(separator: ","), to: &bytes) }
        return bytes
    }

    /// Texts that may be missing: a byte saying which are there, then those.
    private static func append(_ texts: [String?], to bytes: inout [UInt8]) {
        var present: UInt8 = 0
        for (bit, text) in texts.enumerated() where text != nil { present |= 1 << UInt8(bit) }
        bytes.append(present)
        for text in texts { if let text { append(text, to: &bytes) } }
    }

    /// Sets the extras `bytes` hold on `entry` (nothing when they are empty: unreadable).
    static func decode(_ bytes: [UInt8], into entry: inout ImportEntry) {
        guard bytes.count >= 2 else { return }
        var reader = Reader(bytes: bytes, index: 2)
        let flags = bytes[0]
        var grading = CopyGrading(rating: Rating(clamping: Int(bytes[1] & ratingBits)))
        if flags & note != 0 { entry.note = reader.text() }
        if flags & addedAt != 0 { entry.addedAt = reader.date() }
        if flags & location != 0 { entry.location = reader.text() }
        if flags & described != 0 { entry.described = reader.fields() }
        if flags & media != 0 { grading.media = reader.text().flatMap(MediaCondition.init(rawValue:)) }
        if flags & sleeve != 0 { grading.sleeve = reader.text().flatMap(SleeveCondition.init(rawValue:)) }
        if flags & collector != 0 { entry.collector = reader.fields() }
        entry.handEntered = flags & handEntered != 0
        entry.grading = grading
        if bytes[1] & purchase != 0 {
            let parts = reader.texts(4)
            entry.purchase = Purchase(price: parts[0].flatMap(MoneyAmount.parse), currency: parts[1], date: parts[2], from: parts[3])
        }
        if bytes[1] & loan != 0 {
            let parts = reader.texts(3)
            entry.loan = parts[0].map { Loan(to: $0, since: parts[1], returned: parts[2]) }
        }
        if bytes[1] & locationCodes != 0 {
            entry.locationCodes = (reader.text() ?? "").split(separator: ",").compactMap { Int64($0) }
        }
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        var length = UInt64(text.utf8.count)
        repeat {
            let low = UInt8(length & 0x7F)
            length >>= 7
            bytes.append(length == 0 ? low : low | 0x80)
        } while length > 0
        bytes.append(contentsOf: text.utf8)
    }

    private static func append(_ fields: RecordFields, to bytes: inout [UInt8]) {
        var present: UInt8 = 0
        for (bit, field) in RecordField.allCases.enumerated() where fields[field] != nil { present |= 1 << UInt8(bit) }
        bytes.append(present)
        for field in RecordField.allCases { if let text = fields[field] { append(text, to: &bytes) } }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index: Int

        mutating func text() -> String? {
            var length = 0
            var shift = 0
            while index < bytes.count, shift < 63 {
                let byte = bytes[index]
                index += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            guard length >= 0, index + length <= bytes.count else { return nil }
            defer { index += length }
            return String(decoding: bytes[index..<index + length], as: UTF8.self)
        }

        /// `count` texts that may be missing, after the byte saying which are there.
        mutating func texts(_ count: Int) -> [String?] {
            guard index < bytes.count else { return Array(repeating: nil, count: count) }
            let present = bytes[index]
            index += 1
            return (0..<count).map { bit in present & (1 << UInt8(bit)) != 0 ? text() : nil }
        }

        mutating func date() -> Date? {
            guard index + 8 <= bytes.count else { return nil }
            var bits: UInt64 = 0
            for offset in (0..<8).reversed() { bits = bits << 8 | UInt64(bytes[index + offset]) }
            index += 8
            return Date(timeIntervalSince1970: Double(bitPattern: bits))
        }

        mutating func fields() -> RecordFields {
            guard index < bytes.count else { return .none }
            let present = bytes[index]
            index += 1
            var fields = RecordFields()
            for (bit, field) in RecordField.allCases.enumerated() where present & (1 << UInt8(bit)) != 0 {
                fields.set(field, text())
            }
            return fields
        }
    }
}
