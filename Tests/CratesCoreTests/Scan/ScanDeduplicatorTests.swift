import CratesCore
import Testing

/// The hold-time rule with an injected clock: instants are stepped, nothing sleeps.
@Suite("Scan: hold-time deduplication")
struct ScanDeduplicatorTests {
    /// A reading `ms` milliseconds after the start.
    struct Reading: Sendable {
        let ms: Int
        let data: String
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let holdMs: Int
        let readings: [Reading]
        /// The readings reported, by time.
        let reported: [Int]
        var testDescription: String { name }
    }

    static func frames(_ data: String, from start: Int, to end: Int, every step: Int) -> [Reading] {
        stride(from: start, through: end, by: step).map { Reading(ms: $0, data: data) }
    }

    static let cases: [Case] = [
        Case(name: "in view for 3 s at 10 frames a second: one scan", holdMs: 1500,
             readings: frames("A", from: 0, to: 3000, every: 100), reported: [0]),
        Case(name: "gone for longer than the hold: a second scan", holdMs: 1500,
             readings: frames("A", from: 0, to: 500, every: 100) + frames("A", from: 2100, to: 2500, every: 100),
             reported: [0, 2100]),
        Case(name: "a gap shorter than the hold (a missed frame): still one scan", holdMs: 1500,
             readings: frames("A", from: 0, to: 500, every: 100) + frames("A", from: 1900, to: 2500, every: 100),
             reported: [0]),
        Case(name: "exactly the hold after the last sighting counts as gone", holdMs: 1500,
             readings: [Reading(ms: 0, data: "A"), Reading(ms: 1500, data: "A")], reported: [0, 1500]),
        Case(name: "two codes in view together: one scan each", holdMs: 1500,
             readings: [Reading(ms: 0, data: "A"), Reading(ms: 50, data: "B"), Reading(ms: 100, data: "A"),
                        Reading(ms: 150, data: "B")], reported: [0, 50]),
        Case(name: "A, B, A swapped quickly: A is still held", holdMs: 1500,
             readings: [Reading(ms: 0, data: "A"), Reading(ms: 400, data: "B"), Reading(ms: 800, data: "A")],
             reported: [0, 400]),
        Case(name: "a zero hold reports every reading", holdMs: 0,
             readings: frames("A", from: 0, to: 300, every: 100), reported: [0, 100, 200, 300]),
    ]

    @Test("readings to scans", arguments: cases)
    func deduplicates(_ c: Case) {
        let start = ContinuousClock.now
        var dedup = ScanDeduplicator<ContinuousClock.Instant>(hold: .milliseconds(c.holdMs))
        var reported: [Int] = []
        for reading in c.readings where dedup.admit(.ean13, reading.data, at: start.advanced(by: .milliseconds(reading.ms))) {
            reported.append(reading.ms)
        }
        #expect(reported == c.reported)
    }

    @Test("the same data under another symbology is another code")
    func symbologyMatters() {
        let start = ContinuousClock.now
        var dedup = ScanDeduplicator<ContinuousClock.Instant>()
        let first = dedup.admit(.ean13, "5099750442227", at: start)
        let other = dedup.admit(.qrCode, "5099750442227", at: start)
        let again = dedup.admit(.ean13, "5099750442227", at: start.advanced(by: .milliseconds(10)))
        #expect(first && other && !again)
    }

    @Test("codes long gone are forgotten: memory stays bounded by what is in view")
    func bounded() {
        let start = ContinuousClock.now
        var dedup = ScanDeduplicator<ContinuousClock.Instant>(hold: .seconds(1))
        var reported = 0
        for i in 0..<10_000 where dedup.admit(.ean13, String(i), at: start.advanced(by: .milliseconds(i * 100))) {
            reported += 1
        }
        #expect(reported == 10_000)
        #expect(dedup.remembered <= 33)
        #expect(dedup.hold == .seconds(1))
        #expect(ScanDeduplicator<ContinuousClock.Instant>.defaultHold == .milliseconds(1500))
    }
}
