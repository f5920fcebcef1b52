import CStringSearch
import Testing

/// `crates_find`, the search the strip and the scanner find tags with, answers what libc's
/// `memmem` answers: the first place the needle begins, or none, wherever it falls against
/// the 16-byte blocks it tries at once, and with near misses (two of its three tested bytes)
/// all around.
@Suite struct TagSearchTests {
    static func memmemIndex(_ haystack: [UInt8], _ needle: [UInt8]) -> Int {
        haystack.withUnsafeBytes { h in
            needle.withUnsafeBytes { n in
                guard let found = memmem(h.baseAddress, h.count, n.baseAddress, n.count), let base = h.baseAddress else { return -1 }
                return UnsafeRawPointer(found) - base
            }
        }
    }

    static func findIndex(_ haystack: [UInt8], _ needle: [UInt8]) -> Int {
        haystack.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in crates_find(h.baseAddress, h.count, n.baseAddress, n.count) }
        }
    }

    @Test("random bytes of a small alphabet, and needles of 1 to 15 bytes: the same answers as memmem")
    func sameAsMemmem() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("</>rtal".utf8)
        for _ in 0..<20_000 {
            let haystack = (0..<Int.random(in: 0...90, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            let needle = (0..<Int.random(in: 1...15, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            #expect(Self.findIndex(haystack, needle) == Self.memmemIndex(haystack, needle), "\(haystack) \(needle)")
        }
    }

    @Test("an end tag at every place of a run of tags, and the tags that share its tested bytes")
    func endTagsEverywhere() {
        let needle = Array("</tracklist>".utf8)
        let decoys = ["</track>", "</title>", "</tracklists>", "</tracklis>", "<tracklist>", "</trackless>"].map { Array($0.utf8) }
        for length in 0..<80 {
            var haystack: [UInt8] = []
            while haystack.count < length { haystack += decoys[haystack.count % decoys.count] }
            haystack = Array(haystack.prefix(length))
            #expect(Self.findIndex(haystack, needle) == -1)
            for place in 0...haystack.count {
                let planted = Array(haystack[..<place]) + needle + Array(haystack[place...])
                #expect(Self.findIndex(planted, needle) == Self.memmemIndex(planted, needle), "at \(place) of \(length)")
            }
        }
    }
}
