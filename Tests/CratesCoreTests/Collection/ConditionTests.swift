import CratesCore
import Foundation
import Testing

/// Grades as a person types them, and as Discogs writes them.
@Suite struct ConditionTests {
    /// Every grade by its full Discogs text, its name without brackets and its short forms,
    /// in the cases and spacings people type.
    static let spellings: [(MediaCondition, [String])] = [
        (.mint, ["Mint (M)", "mint", "M", "m", " MINT ", "mint (m)"]),
        (.nearMint, ["Near Mint (NM or M-)", "near mint", "NM", "nm", "M-", "m-", "NM or M-", "nearmint", "Near  Mint"]),
        (.veryGoodPlus, ["Very Good Plus (VG+)", "very good plus", "VG+", "vg+", "Vg+", "VG +", "very_good_plus"]),
        (.veryGood, ["Very Good (VG)", "very good", "VG", "vg"]),
        (.goodPlus, ["Good Plus (G+)", "good plus", "G+", "g+"]),
        (.good, ["Good (G)", "good", "G", "g"]),
        (.fair, ["Fair (F)", "fair", "F", "f"]),
        (.poor, ["Poor (P)", "poor", "P", "p"]),
    ]

    @Test func mediaGradesParseLeniently() throws {
        for (grade, texts) in Self.spellings {
            for text in texts {
                #expect(try MediaCondition(parsing: text) == grade, "\(text)")
                #expect(try SleeveCondition(parsing: text) == SleeveCondition(grade), "\(text)")
            }
        }
    }

    @Test func discogsTextsAreExact() throws {
        #expect(MediaCondition.allCases.map(\.rawValue) == [
            "Mint (M)", "Near Mint (NM or M-)", "Very Good Plus (VG+)", "Very Good (VG)", "Good Plus (G+)", "Good (G)", "Fair (F)", "Poor (P)",
        ])
        #expect(SleeveCondition.allCases.map(\.rawValue) == MediaCondition.allCases.map(\.rawValue) + ["Generic", "No Cover", "Not Graded"])
        #expect(MediaCondition.allCases.map(\.abbreviation) == ["M", "NM", "VG+", "VG", "G+", "G", "F", "P"])
        for grade in MediaCondition.allCases {
            #expect(SleeveCondition(grade).grade == grade)
            #expect(SleeveCondition(grade).discogsText == grade.discogsText)
            #expect(try MediaCondition(parsing: grade.discogsText) == grade)
            #expect(try MediaCondition(parsing: grade.abbreviation) == grade)
        }
    }

    @Test func sleeveOnlyStates() throws {
        #expect(try SleeveCondition(parsing: "Generic") == .generic)
        #expect(try SleeveCondition(parsing: "no cover") == .noCover)
        #expect(try SleeveCondition(parsing: "NOCOVER") == .noCover)
        #expect(try SleeveCondition(parsing: "Not Graded") == .notGraded)
        #expect(try SleeveCondition(parsing: "not graded") == .notGraded)
        #expect(SleeveCondition.generic.grade == nil)
        #expect(SleeveCondition.noCover.abbreviation == "No Cover")
        // A record is never "Generic".
        #expect(throws: ConditionError(typed: "Generic", kind: .media)) { try MediaCondition(parsing: "Generic") }
    }

    @Test func unknownGradesAreRefusedWithTheValidOnes() {
        for text in ["VG++", "EX", "Excellent", "M+", "NM-", "very", "5", "(VG)"] {
            #expect(throws: ConditionError.self, "\(text)") { try MediaCondition(parsing: text) }
            #expect(throws: ConditionError.self, "\(text)") { try SleeveCondition(parsing: text) }
        }
        let error = ConditionError(typed: "VG++", kind: .media)
        #expect(error.description.hasPrefix("\"VG++\" is not a media condition: use one of Mint (M), Near Mint (NM or M-), Very Good Plus (VG+)"))
        #expect(error.description.contains("Poor (P)"))
        #expect(!error.description.contains("Generic"))
        let sleeve = ConditionError(typed: "shiny", kind: .sleeve)
        #expect(sleeve.description.contains("Generic, No Cover, Not Graded"))
        #expect(ConditionError(typed: "  ", kind: .media).description.hasPrefix("no media condition given: use one of"))
    }

    @Test func typedTextIsCleanedBeforeItIsEchoed() {
        let error = ConditionError(typed: "VG\u{1B}[31m+", kind: .media)
        #expect(!error.description.unicodeScalars.contains("\u{1B}"))
        #expect(error.typed == "VG[31m+")
    }

    @Test func conditionsEncodeAsDiscogsText() throws {
        let data = try JSONEncoder().encode([SleeveCondition.noCover, .veryGoodPlus])
        #expect(String(decoding: data, as: UTF8.self) == #"["No Cover","Very Good Plus (VG+)"]"#)
        #expect(try JSONDecoder().decode(MediaCondition.self, from: Data(#""Near Mint (NM or M-)""#.utf8)) == .nearMint)
    }
}
