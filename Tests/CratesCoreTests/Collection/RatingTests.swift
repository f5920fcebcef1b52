import CratesCore
import Foundation
import Testing

@Suite struct RatingTests {
    @Test func zeroToFiveAreRatings() throws {
        for value in 0...5 {
            #expect(try Rating(value).value == value)
            #expect(try Rating(parsing: "\(value)").value == value)
            #expect(try Rating(parsing: " \(value) ").value == value)
        }
        #expect(Rating.unrated.value == 0 && !Rating.unrated.isRated)
        #expect(try Rating(3).isRated)
        #expect(try Rating(2) < Rating(5))
    }

    @Test func othersAreRefusedWithTheRule() {
        for value in [-1, 6, 10, Int.max, Int.min] {
            #expect(throws: RatingError.outOfRange(value)) { try Rating(value) }
        }
        #expect(throws: RatingError.outOfRange(6)) { try Rating(parsing: "6") }
        for text in ["", "three", "3.5", "-1", "+3", "３", "99999999999999999999", "4/5"] {
            #expect(throws: RatingError.self, "\(text)") { try Rating(parsing: text) }
        }
        #expect(RatingError.outOfRange(7).description == "7 is not a rating: a rating is a whole number from 0 (not rated) to 5")
        #expect(RatingError.notANumber("three").description == "\"three\" is not a rating: a rating is a whole number from 0 (not rated) to 5")
        #expect(RatingError.notANumber("").description.hasPrefix("no rating given"))
    }

    @Test func clampingIsForOutsideData() {
        #expect(Rating(clamping: 9).value == 5)
        #expect(Rating(clamping: -3).value == 0)
        #expect(Rating(clamping: 4).value == 4)
    }

    @Test func codableAsANumber() throws {
        #expect(String(decoding: try JSONEncoder().encode(try Rating(4)), as: UTF8.self) == "4")
        #expect(try JSONDecoder().decode(Rating.self, from: Data("5".utf8)).value == 5)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Rating.self, from: Data("6".utf8)) }
    }
}
