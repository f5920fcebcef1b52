import CratesCore
import Foundation
import Testing

/// Collection answers in Discogs' shapes decode into what a sync needs, and the user's
/// fields are found by name.
@Suite struct DiscogsCollectionModelTests {
    /// A folder page in the shape api.discogs.com sends: pagination with urls, an instance
    /// id beyond 32 bits, conditions and notes in `notes`, a second instance without notes.
    static let page = #"""
        {"pagination": {"page": 2, "pages": 3, "per_page": 100, "items": 250,
          "urls": {"first": "https://api.discogs.com/users/u/collection/folders/0/releases?page=1", "prev": "x", "next": "y", "last": "z"}},
         "releases": [
          {"id": 54524, "instance_id": 5000000123, "date_added": "2020-10-28T09:37:50-07:00", "rating": 4, "folder_id": 7,
           "basic_information": {"id": 54524, "master_id": 36105, "resource_url": "https://api.discogs.com/releases/54524",
             "thumb": "https://i.discogs.com/t.jpeg", "cover_image": "https://i.discogs.com/c.jpeg", "title": "Purple", "year": 1997,
             "formats": [{"name": "Vinyl", "qty": "1", "descriptions": ["12\"", "45 RPM", "Promo"]}],
             "labels": [{"name": "4AD", "catno": "GUS 7", "entity_type": "1", "id": 634}],
             "artists": [{"name": "GusGus", "anv": "Gus Gus", "join": "", "role": "", "tracks": "", "id": 231513}],
             "genres": ["Electronic"], "styles": ["Breaks", "Downtempo"]},
           "notes": [{"field_id": 1, "value": "Very Good Plus (VG+)"}, {"field_id": 2, "value": "Generic"},
                     {"field_id": 3, "value": "first line\r\nsecond\u001b[31m line"}]},
          {"id": 20078449, "instance_id": 1081693136, "date_added": "2022-07-17T22:30:56-07:00", "rating": 0, "folder_id": 1,
           "basic_information": {"id": 20078449, "title": "Realism EP", "year": 2021, "formats": [], "labels": [],
             "artists": [{"name": "Rising Sun (7)", "anv": "", "join": ""}], "genres": ["Electronic"], "styles": []}}
         ]}
        """#

    static let fields = #"""
        {"fields": [
          {"id": 1, "name": "Media Condition", "type": "dropdown", "position": 1, "public": false,
           "options": ["Mint (M)", "Near Mint (NM or M-)", "Very Good Plus (VG+)", "Very Good (VG)", "Good Plus (G+)", "Good (G)", "Fair (F)", "Poor (P)"]},
          {"id": 2, "name": "Sleeve Condition", "type": "dropdown", "position": 2, "public": false,
           "options": ["Generic", "No Cover", "Mint (M)", "Near Mint (NM or M-)", "Very Good Plus (VG+)", "Very Good (VG)", "Good Plus (G+)", "Good (G)", "Fair (F)", "Poor (P)"]},
          {"id": 3, "name": "Notes", "type": "textarea", "position": 3, "public": false, "lines": 3},
          {"id": 9, "name": "Paid", "type": "checkbox", "position": 4, "public": true}
        ]}
        """#

    @Test func aPageDecodes() throws {
        let page = try JSONDecoder().decode(DiscogsCollectionPage.self, from: Data(Self.page.utf8))
        #expect(page.pagination == DiscogsPagination(page: 2, pages: 3, perPage: 100, items: 250))
        #expect(page.releases.count == 2)
        let first = page.releases[0]
        #expect(first.instanceID == 5_000_000_123 && first.instanceID > Int64(UInt32.max))
        #expect(first.key == DiscogsInstanceKey(folderID: 7, releaseID: 54524, instanceID: 5_000_000_123))
        #expect(first.rating == (try Rating(4)))
        #expect(first.addedAt == UTCTimestamp.parse("2020-10-28 16:37:50"))
        #expect(first.notes.map(\.fieldID) == [1, 2, 3])
        #expect(page.releases[1].notes.isEmpty)
        #expect(page.releases[1].instanceID == 1_081_693_136)
    }

    @Test func basicInformationMakesTheRelease() throws {
        let page = try JSONDecoder().decode(DiscogsCollectionPage.self, from: Data(Self.page.utf8))
        let release = page.releases[0].release(webBase: "https://www.discogs.com")
        #expect(release.id == 54524)
        #expect(release.artist == "Gus Gus")
        #expect(release.title == "Purple")
        #expect(release.genres == ["Electronic"] && release.styles == ["Breaks", "Downtempo"])
        #expect(release.formats == ["Vinyl, 12\", 45 RPM, Promo"])
        #expect(release.year == 1997)
        #expect(release.labels == [.init(name: "4AD", catno: "GUS 7")])
        #expect(release.thumbURL == "https://i.discogs.com/t.jpeg")
        #expect(release.url == "https://www.discogs.com/release/54524")
        #expect(release.country == nil)
        #expect(release.section == "Electronic")
        // The stored JSON is basic_information itself, keys sorted, slashes as sent.
        #expect(release.rawJSON.hasPrefix(#"{"artists":[{"anv":"Gus Gus","id":231513,"join":"","#))
        #expect(release.rawJSON.contains(#""resource_url":"https://api.discogs.com/releases/54524""#))
        #expect(JSONText.compacted(release.rawJSON) == release.rawJSON)
        #expect(page.releases[1].release().artist == "Rising Sun")
    }

    @Test func foldersDecode() throws {
        let body = #"{"folders": [{"id": 0, "name": "All", "count": 245, "resource_url": "x"}, {"id": 1, "name": "Uncategorized", "count": 245}]}"#
        let folders = try JSONDecoder().decode(DiscogsCollectionFolders.self, from: Data(body.utf8)).folders
        #expect(folders == [DiscogsCollectionFolder(id: 0, name: "All", count: 245), DiscogsCollectionFolder(id: 1, name: "Uncategorized", count: 245)])
    }

    @Test func fieldsAreFoundByName() throws {
        let fields = try JSONDecoder().decode(DiscogsCollectionFields.self, from: Data(Self.fields.utf8)).fields
        #expect(fields.map(\.kind) == [.dropdown, .dropdown, .textarea, .other("checkbox")])
        let map = DiscogsCollectionFieldMap(fields: fields)
        #expect(map.media?.id == 1 && map.sleeve?.id == 2 && map.notes?.id == 3)
        #expect(map.notes?.lines == 3 && map.media?.isPublic == false)
        #expect(map.media?.accepts("Very Good (VG)") == true)
        #expect(map.media?.accepts("VG") == false)
        #expect(map.media?.accepts("Generic") == false)
        #expect(map.notes?.accepts("anything at all") == true)

        // Names are matched without regard to case or surrounding spaces; others are ignored.
        let renamed = DiscogsCollectionFieldMap(fields: [
            DiscogsCollectionField(id: 5, name: " media condition ", kind: .dropdown, options: ["Mint (M)"]),
            DiscogsCollectionField(id: 6, name: "Sleeve", kind: .dropdown, options: ["Mint (M)"]),
        ])
        #expect(renamed.media?.id == 5 && renamed.sleeve == nil && renamed.notes == nil)
    }

    @Test func anInstanceIsReadThroughTheMap() throws {
        let fields = try JSONDecoder().decode(DiscogsCollectionFields.self, from: Data(Self.fields.utf8)).fields
        let map = DiscogsCollectionFieldMap(fields: fields)
        let page = try JSONDecoder().decode(DiscogsCollectionPage.self, from: Data(Self.page.utf8))
        let read = map.read(page.releases[0].notes)
        #expect(read.media == .veryGoodPlus)
        #expect(read.sleeve == .generic)
        #expect(read.notes == "first line\nsecond[31m line")
        #expect(read.unrecognized.isEmpty)
        #expect(map.read([]) == DiscogsCopyFields())
        let odd = map.read([DiscogsInstanceNote(fieldID: 1, value: "Shiny"), DiscogsInstanceNote(fieldID: 3, value: ""), DiscogsInstanceNote(fieldID: 42, value: "x")])
        #expect(odd.media == nil && odd.notes == nil)
        #expect(odd.unrecognized == [DiscogsInstanceNote(fieldID: 1, value: "Shiny")])
    }

    @Test func writesAreCheckedAgainstTheUsersOptions() throws {
        let fields = try JSONDecoder().decode(DiscogsCollectionFields.self, from: Data(Self.fields.utf8)).fields
        let map = DiscogsCollectionFieldMap(fields: fields)
        let writes = try map.writes(media: .nearMint, sleeve: .noCover, notes: "a & b = c?\nline two")
        #expect(writes.map(\.field.id) == [1, 2, 3])
        #expect(writes.map(\.value) == ["Near Mint (NM or M-)", "No Cover", "a & b = c?\nline two"])
        #expect(try map.writes(media: nil, sleeve: nil, notes: nil).isEmpty)
        // Discogs' default sleeve field has no "Not Graded" (recorded in 2022).
        #expect(throws: DiscogsFieldValueError.self) { try map.writes(media: nil, sleeve: .notGraded, notes: nil) }
        do {
            _ = try map.writes(media: nil, sleeve: .notGraded, notes: nil)
        } catch {
            #expect(error.description.hasPrefix("your Discogs field \"Sleeve Condition\" does not offer \"Not Graded\": its options are Generic, No Cover, Mint (M)"))
        }
    }

    @Test func notesKeepLinesAndLoseControls() {
        #expect(DiscogsCopyFields.cleanNotes("a\r\nb\rc\nd\te\u{7}f\u{9B}g") == "a\nb\nc\nd efg")
        #expect(DiscogsCopyFields.cleanNotes("日本語 ✓") == "日本語 ✓")
    }
}

extension DiscogsCollectionModelTests {
    @Test func anInstanceCanBeMadeForTwins() throws {
        let made = try DiscogsCollectionInstance(
            releaseID: 7, instanceID: 6_000_000_000, folderID: 1, rating: try Rating(2), dateAdded: "2024-01-31T04:34:56-08:00",
            notes: [DiscogsInstanceNote(fieldID: 1, value: "Mint (M)")],
            basicInformation: .object(["id": .integer(7), "title": .string("T"), "artists": .array([.object(["name": .string("A (2)")])])]))
        #expect(made.release().artist == "A" && made.release().title == "T")
        #expect(made.key == DiscogsInstanceKey(folderID: 1, releaseID: 7, instanceID: 6_000_000_000))
        #expect(made.addedAt == UTCTimestamp.parse("2024-01-31 12:34:56"))
        #expect(throws: (any Error).self) { try DiscogsCollectionInstance(releaseID: 7, instanceID: 1, folderID: 1, basicInformation: .object([:])) }
    }
}
