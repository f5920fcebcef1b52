import CratesCore
import Foundation
import Testing

@testable import CratesTUI

/// Check mode as a value: scans go on the fair's list and are checked, never added; the
/// verdict's keys ask the session to buy, want or unwant; the wantlist view's keys.
@Suite("Collection UI: check mode and the wantlist")
struct CheckModeStateTests {
    static let codes = (0..<20).map { sampleCode($0) }

    /// A valid EAN-13 for `n`.
    static func sampleCode(_ n: Int) -> String {
        let body = String(format: "50000%07d", 8_400_000 + n)
        let digits = body.compactMap(\.wholeNumberValue)
        let sum = digits.reversed().enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }

    static func answer(_ code: String, id: Int, verdict: CheckVerdict) -> CheckAnswer {
        var answer = CheckAnswer(
            code: code, gtin: try? GTIN.parse(code).gtin,
            releases: [CheckedRelease(id: id, artist: "Artist \(id)", title: "Title \(id)", country: "UK", year: 1973)])
        switch verdict {
        case .owned: answer.owned = [OwnedCopy(id: 9, releaseID: id, place: "Shelf", grading: CopyGrading(media: .veryGoodPlus), addedAt: Date())]
        case .wanted: answer.wanted = [WantEntry(releaseID: id, artist: "Artist \(id)", title: "Title \(id)", addedAt: Date())]
        default: break
        }
        answer.decide()
        return answer
    }

    @Test("f turns check mode on: the title bar says so; a wedge burst of 20 codes is 20 checks, none an add; each answer lands on its line")
    func burst() {
        var h = Harness(width: 100, height: 30)
        h.type([.character("f")])
        #expect(h.state.checkMode)
        #expect(h.lines[0].contains("CHECK — scans add nothing"), "\(h.lines[0])")
        var sent: [CheckReference] = []
        var t = 200.0
        for code in Self.codes {
            for c in code {
                t += 0.01
                sent += h.send(.key(.character(c), at: t)).compactMap { if case .session(.check(let r)) = $0 { r } else { nil } }
            }
            t += 0.01
            sent += h.send(.key(.enter, at: t)).compactMap { if case .session(.check(let r)) = $0 { r } else { nil } }
        }
        #expect(sent.map(\.code) == Self.codes, "every code checked, in order")
        #expect(!h.commands.contains { if case .session(.add) = $0 { true } else { false } }, "nothing added")
        #expect(h.state.fair.count == 20 && h.state.fair.first?.code == Self.codes.last, "newest first")
        // Answers come in any order; each fills its own line.
        for reference in sent.reversed() {
            let verdict: CheckVerdict = reference.serial % 2 == 0 ? .owned : .new
            h.send(.checked(serial: reference.serial, .answered(Self.answer(reference.code, id: reference.serial, verdict: verdict))))
        }
        #expect(h.state.fair.allSatisfy { $0.outcome != nil })
        #expect(h.lines.contains { $0.contains("O W N E D") }, "the last scan's verdict, spaced out: \(h.lines)")
        h.type([.escape])
        let list = h.lines.joined(separator: "\n")
        #expect(list.contains("The fair's list: 20 checked"), "\(list)")
        #expect(h.lines.filter { $0.contains("OWNED") }.count + h.lines.filter { $0.contains("NEW") }.count >= 20, "\(list)")
    }

    @Test("a verdict's keys: b bought, w want, x off the wantlist, p price, r again; a code that is no barcode is refused on the list")
    func verdictKeys() {
        var h = Harness(width: 100, height: 30)
        h.state.startChecking()
        let code = Self.codes[0]
        let checks = h.type(Array(code).map { Key.character($0) } + [.enter], from: 100, interval: 0.01)
        guard case .session(.check(let reference))? = checks.first else {
            Issue.record("no check: \(checks)")
            return
        }
        h.send(.checked(serial: reference.serial, .answered(Self.answer(code, id: 7, verdict: .wanted))))
        #expect(h.lines.contains { $0.contains("W A N T E D") })
        #expect(h.type([.character("b")]) == [.session(.addBought(releaseID: 7, gtin: try? GTIN.parse(code).gtin, recheck: reference))])
        let wanted = h.type([.character("w")])
        #expect(wanted.count == 1 && { if case .session(.want(.add(let r), let again)) = wanted[0] { r.id == 7 && again == reference } else { false } }())
        #expect(h.type([.character("x")]) == [.session(.want(.remove(releaseID: 7), recheck: reference))])
        #expect(h.type([.character("p")]) == [.session(.refreshPrices([7], recheck: reference))])
        // The wantlist changed: the verdict follows it.
        h.send(.wantlist([]))
        #expect(h.state.fair.first?.outcome?.answer?.verdict == .new)

        h.type(Array("12345").map { Key.character($0) } + [.enter], from: 300, interval: 0.01)
        #expect(h.state.fair.first?.code == "12345")
        if case .refused? = h.state.fair.first?.outcome {} else { Issue.record("not refused: \(String(describing: h.state.fair.first))") }
        h.type([.escape])
        #expect(h.lines.contains { $0.contains("REFUSED") && $0.contains("12345") }, "\(h.lines)")
        // f leaves check mode: scans add again.
        h.type([.character("f")])
        #expect(!h.state.checkMode)
        let added = h.type(Array(Self.codes[1]).map { Key.character($0) } + [.enter], from: 400, interval: 0.01)
        #expect(added.contains { if case .session(.add) = $0 { true } else { false } }, "\(added)")
    }

    @Test("the wantlist view: w opens it and loads it; x, + and p ask the session; a scan here wants the code")
    func wantlist() {
        var h = Harness(width: 100, height: 30)
        #expect(h.type([.character("w")]) == [.session(.want(.load, recheck: nil))])
        let want = WantEntry(releaseID: 4, artist: "A", title: "T", rating: Rating(clamping: 2), addedAt: Date())
        h.send(.wantlist([WantListing(want: want, price: PriceFigure(lowest: 12.4, currency: "GBP", forSale: 14, asOf: Date()))]))
        #expect(h.lines.contains { $0.contains("A — T") && $0.contains("£12.40 lowest, 14 for sale, today") }, "\(h.lines)")
        #expect(h.type([.character("x")]) == [.session(.want(.remove(releaseID: 4), recheck: nil))])
        #expect(h.type([.character("+")]) == [.session(.want(.rate(releaseID: 4, Rating(clamping: 3)), recheck: nil))])
        #expect(h.type([.character("p")]) == [.session(.want(.refreshPrices, recheck: nil))])
        let scanned = h.type(Array(Self.codes[2]).map { Key.character($0) } + [.enter], from: 500, interval: 0.01)
        #expect(scanned == [.session(.want(.addCode(Self.codes[2]), recheck: nil))], "\(scanned)")
    }

    @Test("the wantlist view: O cycles artist, added, rating, price; R turns it round; the selection and the order stay")
    func wantlistOrders() {
        var h = Harness(width: 120, height: 30)
        h.type([.character("w")])
        // As the store gives them, by artist: Abba (2 stars), Bowie (5), Cure (unrated).
        let wants = [("Abba", 2), ("Bowie", 5), ("Cure", 0)].enumerated().map { index, want in
            WantListing(
                want: WantEntry(
                    releaseID: index + 1, artist: want.0, title: "T", rating: Rating(clamping: want.1),
                    addedAt: Date(timeIntervalSince1970: Double(3 - index) * 86_400)),
                price: nil)
        }
        h.send(.wantlist(wants))
        func shown() -> [String] { h.lines.compactMap { line in ["Abba", "Bowie", "Cure"].first { line.contains("\($0) — T") } } }
        #expect(shown() == ["Abba", "Bowie", "Cure"] && h.lines[1].contains("3 wanted, by artist, A–Z"), "\(h.lines)")
        h.type([.down])  // Bowie
        h.type([.character("O")])
        #expect(shown() == ["Cure", "Bowie", "Abba"] && h.lines[1].contains("by added, the earliest first"), "\(h.lines)")
        h.type([.character("O")])
        #expect(shown() == ["Bowie", "Abba", "Cure"] && h.lines[1].contains("by rating, the most wanted first"), "\(h.lines)")
        #expect(h.type([.character("x")]) == [.session(.want(.remove(releaseID: 2), recheck: nil))], "Bowie still selected")
        h.type([.character("R")])
        #expect(shown() == ["Cure", "Abba", "Bowie"] && h.lines[1].contains("by rating, the least wanted first"), "\(h.lines)")
        // The wantlist loaded again (a sync, a want added) and the view opened again: the
        // order holds for the session.
        h.send(.wantlist(wants))
        #expect(shown() == ["Cure", "Abba", "Bowie"], "\(h.lines)")
        #expect(h.type([.character("x")]) == [.session(.want(.remove(releaseID: 2), recheck: nil))], "Bowie still selected after the reload")
        h.type([.escape, .character("w")])
        h.send(.wantlist(wants))
        #expect(shown() == ["Cure", "Abba", "Bowie"], "\(h.lines)")
        h.type([.character("O"), .character("O"), .character("R")])
        #expect(shown() == ["Abba", "Bowie", "Cure"] && h.lines[1].contains("by artist, A–Z"), "\(h.lines)")
        // On 80 columns the order and how to want a record stay in sight.
        var narrow = Harness(width: 80, height: 24)
        narrow.type([.character("w"), .character("O"), .character("O")])
        narrow.send(.wantlist(wants))
        #expect(narrow.lines[1].contains("3 wanted, by rating, the most wanted first · scan to want"), "\(narrow.lines[1])")
    }
}
