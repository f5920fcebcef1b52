import CratesCore
import Foundation
import Testing

@Suite("A check's answer: verdicts and how they read")
struct CheckAnswerTests {
    @Test("on a terminal: a block per code, the verdict first, the place and grades, the price with its age")
    func terminalBlock() async throws {
        let answer = CheckAnswer(
            code: "5099750442227", gtin: nil,
            releases: [CheckedRelease(id: 1, artist: "A", title: "T", country: "UK", year: 1973, label: "Harvest", catno: "SHVL 804",
                                      format: "Vinyl, LP", price: PriceFigure(lowest: 12.4, currency: "GBP", forSale: 14, asOf: Date(timeIntervalSince1970: 0)))],
            owned: [OwnedCopy(id: 12, releaseID: 1, place: "Room › Shelf", grading: CopyGrading(media: .veryGoodPlus, sleeve: .veryGood), addedAt: Date())])
        var decided = answer
        decided.decide()
        let block = decided.block(now: Date(timeIntervalSince1970: 3 * 86_400 + 60))
        #expect(block.first == "5099750442227  OWNED")
        #expect(block.contains("    owned: 1 copy: #12 in Room › Shelf, VG+/VG"), "\(block)")
        #expect(block.contains("    price: £12.40 lowest, 14 for sale, 3 days ago"), "\(block)")
    }

    @Test("verdicts: owned, then another pressing, then wanted, then new; the code takes the strongest")
    func verdictOrder() {
        let copy = OwnedCopy(id: 1, releaseID: 2, place: nil, grading: .none, addedAt: Date())
        var answer = CheckAnswer(
            code: "x", gtin: nil,
            releases: [CheckedRelease(id: 1, artist: "A", title: "T", master: 9), CheckedRelease(id: 2, artist: "A", title: "T", master: 9),
                       CheckedRelease(id: 3, artist: "A", title: "T"), CheckedRelease(id: 4, artist: "A", title: "T")],
            owned: [copy], otherPressings: [OtherPressing(copy: copy, of: 1, master: 9, differences: [])],
            wanted: [WantEntry(releaseID: 3, artist: "A", title: "T", addedAt: Date())])
        answer.decide()
        #expect(answer.releases.map(\.verdict) == [.otherPressing, .owned, .wanted, .new])
        #expect(answer.verdict == .owned)
        #expect(CheckAnswer(code: "y", gtin: nil).verdict == .unknown)
    }

    @Test("text from outside is cleaned before it reaches a terminal")
    func cleaned() {
        var answer = CheckAnswer(code: "c", gtin: nil, releases: [CheckedRelease(id: 1, artist: "A\u{1B}[31m", title: "T\u{07}")])
        answer.decide()
        #expect(!answer.block(now: Date()).joined().unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test("prices read with their currency and age")
    func priceText() {
        let now = Date(timeIntervalSince1970: 10 * 86_400)
        #expect(PriceFigure(lowest: 12.4, currency: "GBP", forSale: 14, asOf: now.addingTimeInterval(-3 * 86_400)).text(now: now)
            == "£12.40 lowest, 14 for sale, 3 days ago")
        #expect(PriceFigure(lowest: nil, currency: "USD", forSale: 0, asOf: now).text(now: now) == "none for sale, today")
        #expect(PriceFigure.money(21, "CHF") == "21.00 CHF")
    }
}
