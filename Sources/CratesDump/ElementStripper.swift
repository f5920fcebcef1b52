/// Removes from a run of releases the elements the catalogue does not read, before the
/// scanner (`ReleaseScanner`) sees them: the tracklist, the credits, the videos, the companies, the notes and the images
/// are most of a release's bytes (about three quarters in the 2025 format), and a byte scan
/// skips them several times faster than a parser reads them.
///
/// Safe on any well-formed XML: `<` is always escaped in text and attribute values, so the
/// bytes `<tracklist>` can only be that start tag, and none of these elements holds another
/// of its own name (the credits inside a track go with the tracklist); one not closed before
/// the next release tag is left to the parser. A fault inside what is
/// stripped (a control character in the notes) no longer costs the release: it is read with
/// everything the catalogue keeps.
import CStringSearch
import Foundation

enum ElementStripper {
    /// Where `bytes` lost what: at `position` of the stripped bytes, `removedBefore` bytes of
    /// the original had been removed so far.
    struct Removal: Sendable, Hashable {
        var position: Int
        var removedBefore: Int
    }

    /// Element names, each as `name>` (the start tag without `<`) and `</name>`.
    private static let names: [(start: [UInt8], end: [UInt8])] = [
        "tracklist", "extraartists", "videos", "companies", "notes", "images",
    ].map { (Array("\($0)>".utf8), Array("</\($0)>".utf8)) }

    static func strip(_ source: ArraySlice<UInt8>) -> (bytes: [UInt8], removals: [Removal]) {
        source.withUnsafeBufferPointer { strip($0) }
    }

    static func strip(_ buffer: UnsafeBufferPointer<UInt8>) -> (bytes: [UInt8], removals: [Removal]) {
        var out: [UInt8] = []
        out.reserveCapacity(buffer.count / 2)
        var removals: [Removal] = []
        var removed = 0
        do {
            let count = buffer.count
            var copyFrom = 0
            var index = 0
            // The next release tag (`<release`, `</release>`) from where an element was last
            // looked at: a stripped element must end before it, so that a release left open
            // (cut short, the next one following) never takes the next one's bytes with it.
            var boundary = -1
            while index < count - 1 {
                guard let base = buffer.baseAddress, let found = memchr(base + index, 0x3C, count - index) else { break }
                index = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                guard index < count - 1 else { break }
                let first = buffer[index + 1]
                var matched = false
                for name in names where name.start[0] == first && index + 1 + name.start.count <= count {
                    guard matches(buffer, at: index + 1, name.start) else { continue }
                    if boundary < index { boundary = ReleaseTags.next(in: buffer, from: index)?.position ?? count }
                    guard let end = find(name.end, in: buffer, from: index + 1 + name.start.count, before: boundary) else { break }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[copyFrom..<index]))
                    let resume = end + name.end.count
                    removed += resume - index
                    removals.append(Removal(position: out.count, removedBefore: removed))
                    copyFrom = resume
                    index = resume
                    matched = true
                    break
                }
                if !matched { index += 1 }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[copyFrom..<count]))
        }
        return (out, removals)
    }

    private static func matches(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int, _ pattern: [UInt8]) -> Bool {
        for k in 0..<pattern.count where buffer[index + k] != pattern[k] { return false }
        return true
    }

    /// The index of the first `pattern` at or after `from` that ends by `before`. By libc's
    /// `crates_find`, not a `memchr` for each `<`: what is skipped (a tracklist, its credits) is
    /// mostly tags.
    private static func find(_ pattern: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, from: Int, before: Int) -> Int? {
        let end = min(before, buffer.count)
        guard let base = buffer.baseAddress, from <= end - pattern.count else { return nil }
        let found = pattern.withUnsafeBufferPointer { needle in crates_find(base + from, end - from, needle.baseAddress, needle.count) }
        return found < 0 ? nil : from + found
    }
}
