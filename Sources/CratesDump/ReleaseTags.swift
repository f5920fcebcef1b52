import CStringSearch
import Foundation

/// Where releases begin and end in the dump's bytes, found without parsing: `<release` and
/// `</release>` as tags (followed by a blank, `>` or `/`, so never `<releases>`). Safe on any
/// well-formed XML, where `<` is always escaped in text and attribute values; in a release
/// left open they are what says where the next one begins.
enum ReleaseTags {
    /// A release tag found: where its `<` is, and whether it is an end tag.
    struct Found: Hashable {
        var position: Int
        var isEnd: Bool
    }

    private static let word = Array("release".utf8)

    /// The first `<release` or `</release>` tag whose `<` is at or after `from` and before
    /// `end` (the buffer's end when nil).
    static func next(in buffer: UnsafeBufferPointer<UInt8>, from: Int, end: Int? = nil) -> Found? {
        guard let base = buffer.baseAddress else { return nil }
        let limit = min(end ?? buffer.count, buffer.count)
        let stop = min(buffer.count, limit + 2 + word.count)
        // "release" is searched for (`crates_find`, several bytes a cycle) and the `<` or `</`
        // before it checked: one scan finds both kinds.
        var index = max(from + 1, 1)
        while stop - index >= word.count {
            let found = word.withUnsafeBufferPointer { needle in crates_find(base + index, stop - index, needle.baseAddress, needle.count) }
            guard found >= 0 else { return nil }
            let at = index + found
            index = at + 1
            let after = at + word.count
            guard after == buffer.count || isDelimiter(buffer[after]) else { continue }
            if buffer[at - 1] == UInt8(ascii: "<") {
                if at - 1 >= from, at - 1 < limit { return Found(position: at - 1, isEnd: false) }
            } else if at >= 2, buffer[at - 1] == UInt8(ascii: "/"), buffer[at - 2] == UInt8(ascii: "<"), at - 2 >= from, at - 2 < limit {
                return Found(position: at - 2, isEnd: true)
            }
        }
        return nil
    }

    /// The first `<release` start tag at or after `from`.
    static func nextStart(in buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var index = from
        while let found = next(in: buffer, from: index) {
            if !found.isEnd { return found.position }
            index = found.position + 1
        }
        return nil
    }

    /// Whether a `<release` start tag begins at `index`.
    static func isStart(in buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index >= 0, index + 1 + word.count <= buffer.count, buffer[index] == UInt8(ascii: "<") else { return false }
        for k in 0..<word.count where buffer[index + 1 + k] != word[k] { return false }
        let after = index + 1 + word.count
        return after == buffer.count || isDelimiter(buffer[after])
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x3E || byte == 0x2F || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
