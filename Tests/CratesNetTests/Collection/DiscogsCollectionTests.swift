import CratesTestSupport
import CratesCore
import Foundation
import Testing

@testable import CratesNet

/// Every collection call through the real libcurl transport against the loopback server's
/// in-memory collections (Tests/DiscogsServer/collection.py), with its owner checks.
@Suite struct DiscogsCollectionTests {
    let owner = CollectionServerControl.owner

    /// `count` instances of distinct releases, seeded in a scrambled release order (the
    /// server dates them one minute apart, in seeding order). Deterministic: release
    /// `1000 + (i * 104729) % 39_999_989` is distinct for every i below 39,999,989 (both
    /// numbers prime), and `j * 97 % count` visits every index once when 97 does not divide
    /// `count`.
    @discardableResult
    private func seedInstances(_ server: DiscogsTestServer, count: Int) async throws -> [Int64] {
        precondition(count % 97 != 0)
        let releaseIDs = (0..<count).map { 1_000 + ($0 * 104_729) % 39_999_989 }
        let instances = (0..<count).map { #"{"release_id": \#(releaseIDs[$0 * 97 % count])}"# }
        return try await server.collection.seed(#"{"instances": [\#(instances.joined(separator: ", "))]}"#).instance_ids
    }

    @Test func foldersListAllUncategorizedAndTheUsersOwn() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.collection.seed(#"""
            {"folders": [{"id": 7, "name": "Vinyl"}],
             "instances": [{"release_id": 5134861}, {"release_id": 1, "folder_id": 7}, {"release_id": 10507194, "folder_id": 7}]}
            """#)
        let folders = try await testClient(server).collectionFolders(username: owner)
        #expect(folders == [
            DiscogsCollectionFolder(id: 0, name: "All", count: 3), DiscogsCollectionFolder(id: 1, name: "Uncategorized", count: 1),
            DiscogsCollectionFolder(id: 7, name: "Vinyl", count: 2),
        ])
        #expect(try await server.collection.stats().requests == ["folders": 1])
    }

    /// 250 instances, 100 a page: three requests, every instance once, in the order added.
    @Test func pagingReadsEveryInstanceOnceInAStableOrder() async throws {
        let server = try await DiscogsTestServer.start()
        let seeded = try await seedInstances(server, count: 250)
        let client = try testClient(server)
        var pages = client.collectionPages(username: owner)
        var seen: [Int64] = []
        var sizes: [Int] = []
        while let page = try await pages.next() {
            sizes.append(page.releases.count)
            seen += page.releases.map(\.instanceID)
            #expect(page.releases.allSatisfy { $0.folderID == 1 && $0.basicInformation.id == $0.releaseID })
        }
        #expect(sizes == [100, 100, 50])
        #expect(seen == seeded)  // date added, oldest first
        #expect(pages.pageCount == 3 && pages.itemCount == 250)
        #expect(try await pages.next() == nil)  // finished: no fourth request
        #expect(try await server.collection.stats().requests == ["folder_releases": 3])
    }

    /// Sorted by date added, an instance added while the pages are read goes last: nothing
    /// read twice, nothing missed.
    @Test func anAddBetweenPagesDoesNotShiftTheOrder() async throws {
        let server = try await DiscogsTestServer.start()
        let seeded = try await seedInstances(server, count: 150)
        let client = try testClient(server)
        var pages = client.collectionPages(username: owner)
        var seen = try #require(try await pages.next()).releases.map(\.instanceID)
        let added = try await client.addToCollection(username: owner, releaseID: 5_134_861)
        while let page = try await pages.next() { seen += page.releases.map(\.instanceID) }
        #expect(seen == seeded + [added.instanceID])
    }

    /// Other sorts and orders as the server applies them (Discogs' sort keys).
    @Test func sortAndOrderAreSent() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.collection.seed(#"""
            {"instances": [
              {"release_id": 11, "basic_information": {"id": 11, "title": "B", "year": 2001, "artists": [{"name": "Zed"}]}, "rating": 2},
              {"release_id": 12, "basic_information": {"id": 12, "title": "C", "year": 1999, "artists": [{"name": "Abba"}]}, "rating": 5},
              {"release_id": 13, "basic_information": {"id": 13, "title": "A", "year": 2010, "artists": [{"name": "Moby"}]}, "rating": 0}]}
            """#)
        let client = try testClient(server)
        func ids(_ sort: DiscogsCollectionSort, _ order: DiscogsSortOrder) async throws -> [Int] {
            try await client.collectionPage(username: owner, page: 1, sort: sort, order: order).releases.map(\.releaseID)
        }
        #expect(try await ids(.artist, .ascending) == [12, 13, 11])
        #expect(try await ids(.title, .ascending) == [13, 11, 12])
        #expect(try await ids(.year, .descending) == [13, 11, 12])
        #expect(try await ids(.rating, .descending) == [12, 11, 13])
        #expect(try await ids(.added, .descending) == [13, 12, 11])
    }

    @Test func instancesOfOneRelease() async throws {
        let server = try await DiscogsTestServer.start()
        let ids = try await server.collection.seed(#"""
            {"folders": [{"id": 7, "name": "Vinyl"}],
             "instances": [{"release_id": 1}, {"release_id": 5134861}, {"release_id": 1, "folder_id": 7, "rating": 3}]}
            """#).instance_ids
        let client = try testClient(server)
        let instances = try await client.collectionInstances(username: owner, releaseID: 1)
        #expect(instances.map(\.key) == [
            DiscogsInstanceKey(folderID: 1, releaseID: 1, instanceID: ids[0]), DiscogsInstanceKey(folderID: 7, releaseID: 1, instanceID: ids[2]),
        ])
        #expect(instances.map(\.rating.value) == [0, 3])
        #expect(instances[0].release().artist == "Persuader, The")  // basic_information from the release fixture
        #expect(try await client.collectionInstances(username: owner, releaseID: 10_507_194).isEmpty)
    }

    /// 201 with an instance id beyond 32 bits, which then names the instance in every call.
    @Test func addReturnsA64BitInstanceIDThatRoundTrips() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server)
        let added = try await client.addToCollection(username: owner, releaseID: 5_134_861)
        #expect(added.instanceID >= 5_000_000_000 && added.instanceID > Int64(UInt32.max))
        let instance = try #require(added.instance)
        #expect(instance.key == DiscogsInstanceKey(folderID: 1, releaseID: 5_134_861, instanceID: added.instanceID))
        #expect(instance.release().artist == "HammerFall")
        #expect(instance.rating == .unrated)
        let addedAt = try #require(instance.addedAt)
        #expect(abs(addedAt.timeIntervalSinceNow) < 3600)
        #expect(added.resourceURL?.hasSuffix("instance_id=\(added.instanceID)") == true)

        let listed = try await client.collectionInstances(username: owner, releaseID: 5_134_861)
        #expect(listed.map(\.instanceID) == [added.instanceID])
        try await client.editInstance(username: owner, instance.key, rating: try Rating(5))
        #expect(try await server.collection.dump().instances.map(\.rating) == [5])

        // A seeded id far past 2^32 too.
        let big: Int64 = 9_007_199_254_740_993  // 2^53 + 1: not even a Double holds it
        try await server.collection.seed(#"{"replace": false, "instances": [{"release_id": 1, "instance_id": \#(big)}]}"#)
        let page = try await client.collectionPage(username: owner, page: 1)
        #expect(page.releases.map(\.instanceID) == [big, added.instanceID])  // seeded with a 2015 date: older
        try await client.editInstance(username: owner, DiscogsInstanceKey(folderID: 1, releaseID: 1, instanceID: big), rating: try Rating(2))
        #expect(try await server.collection.dump().instances.first { $0.instance_id == big }?.rating == 2)
    }

    @Test func addingToFolderZeroOrAnUnknownReleaseIsRefused() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server)
        await #expect(throws: DiscogsError.unprocessable(message: "Releases cannot be added to the All folder (0): use 1 for Uncategorized.")) {
            _ = try await client.addToCollection(username: owner, releaseID: 1, folderID: 0)
        }
        await #expect(throws: DiscogsError.notFound(message: "Release not found.")) {
            _ = try await client.addToCollection(username: owner, releaseID: 424_242)
        }
        #expect(try await server.collection.dump().instances.isEmpty)
    }

    @Test func rateAndMove() async throws {
        let server = try await DiscogsTestServer.start()
        let id = try await server.collection.seed(#"{"folders": [{"id": 7, "name": "Vinyl"}], "instances": [{"release_id": 1}]}"#).instance_ids[0]
        let client = try testClient(server)
        let key = DiscogsInstanceKey(folderID: 1, releaseID: 1, instanceID: id)
        try await client.editInstance(username: owner, key, rating: try Rating(4), moveTo: 7)
        var dumped = try #require(try await server.collection.dump().instances.first)
        #expect(dumped.rating == 4 && dumped.folder_id == 7)
        // The instance is named by its folder: the old one no longer finds it.
        await #expect(throws: DiscogsError.notFound(message: "Instance not found.")) {
            try await client.editInstance(username: owner, key, rating: .unrated)
        }
        let moved = DiscogsInstanceKey(folderID: 7, releaseID: 1, instanceID: id)
        try await client.editInstance(username: owner, moved, rating: .unrated)
        try await client.editInstance(username: owner, moved)  // nothing to change: nothing sent
        dumped = try #require(try await server.collection.dump().instances.first)
        #expect(dumped.rating == 0 && dumped.folder_id == 7)
        await #expect(throws: DiscogsError.unprocessable(message: "Invalid folder_id: 99.")) {
            try await client.editInstance(username: owner, moved, moveTo: 99)
        }
        #expect(try await server.collection.stats().requests == ["edit": 4])
    }

    @Test func deleteThenList() async throws {
        let server = try await DiscogsTestServer.start()
        let ids = try await server.collection.seed(#"{"instances": [{"release_id": 1}, {"release_id": 1}, {"release_id": 5134861}]}"#).instance_ids
        let client = try testClient(server)
        try await client.deleteInstance(username: owner, DiscogsInstanceKey(folderID: 1, releaseID: 1, instanceID: ids[0]))
        let left = try await client.collectionPage(username: owner, page: 1).releases.map(\.instanceID)
        #expect(left == [ids[1], ids[2]])
        #expect(try await client.collectionInstances(username: owner, releaseID: 1).map(\.instanceID) == [ids[1]])
        await #expect(throws: DiscogsError.notFound(message: "Instance not found.")) {
            try await client.deleteInstance(username: owner, DiscogsInstanceKey(folderID: 1, releaseID: 1, instanceID: ids[0]))
        }
        #expect(try await server.collection.stats().statuses["204"] == 1)
    }

    @Test func fieldsAndTheirValues() async throws {
        let server = try await DiscogsTestServer.start()
        let id = try await server.collection.seed(#"{"instances": [{"release_id": 1}]}"#).instance_ids[0]
        let client = try testClient(server)
        let fields = try await client.collectionFields(username: owner)
        let map = DiscogsCollectionFieldMap(fields: fields)
        let media = try #require(map.media)
        let sleeve = try #require(map.sleeve)
        let notes = try #require(map.notes)
        #expect(media.options == MediaCondition.allCases.map(\.rawValue))
        #expect(sleeve.options == ["Generic", "No Cover"] + MediaCondition.allCases.map(\.rawValue))
        #expect(notes.kind == .textarea)

        let key = DiscogsInstanceKey(folderID: 1, releaseID: 1, instanceID: id)
        let text = "Bought at Kalle's, 2019 & signed = rare?\nSecond line: 日本盤 100% +1"
        for write in try map.writes(media: .veryGoodPlus, sleeve: .generic, notes: text) {
            try await client.setField(username: owner, key, fieldID: write.field.id, value: write.value)
        }
        let instance = try #require(try await client.collectionPage(username: owner, page: 1).releases.first)
        let read = map.read(instance.notes)
        #expect(read == DiscogsCopyFields(media: .veryGoodPlus, sleeve: .generic, notes: text))

        // A value not among the dropdown's options: 422, nothing changed.
        await #expect(throws: DiscogsError.unprocessable(message: "Invalid value for Media Condition: VG+.")) {
            try await client.setField(username: owner, key, fieldID: media.id, value: "VG+")
        }
        await #expect(throws: DiscogsError.unprocessable(message: "Invalid value for Sleeve Condition: Not Graded.")) {
            try await client.setField(username: owner, key, fieldID: sleeve.id, value: SleeveCondition.notGraded.rawValue)
        }
        #expect(try await server.collection.dump().instances[0].notes.map(\.value) == ["Very Good Plus (VG+)", "Generic", text])
        // An empty value is refused, as api.discogs.com refuses it; a single space clears the
        // notes as crates reads them.
        await #expect(throws: DiscogsError.unprocessable(message: "Missing value.")) {
            try await client.setField(username: owner, key, fieldID: notes.id, value: "")
        }
        try await client.setField(username: owner, key, fieldID: notes.id, value: DiscogsCollectionField.clearedText)
        let cleared = try #require(try await client.collectionPage(username: owner, page: 1).releases.first)
        #expect(map.read(cleared.notes) == DiscogsCopyFields(media: .veryGoodPlus, sleeve: .generic, notes: nil))
        let stats = try await server.collection.stats()
        #expect(stats.requests["set_field"] == 7 && stats.statuses["422"] == 3)
    }

    /// 403 for another user's collection and for anonymous requests, with Discogs' messages,
    /// mapped to `.forbidden`; nothing of the other collection changes.
    @Test func anotherUsersCollectionIsForbidden() async throws {
        let server = try await DiscogsTestServer.start()
        let theirs = try await server.collection.seed(#"{"username": "someone-else", "instances": [{"release_id": 1}]}"#).instance_ids[0]
        let client = try testClient(server)
        let notAllowedToView = "You are not allowed to view this resource. Please authenticate as the owner to view this content."
        await #expect(throws: DiscogsError.forbidden(message: notAllowedToView)) {
            _ = try await client.collectionFolders(username: "someone-else")
        }
        await #expect(throws: DiscogsError.forbidden(message: notAllowedToView)) {
            _ = try await client.collectionPage(username: "someone-else", page: 1)
        }
        await #expect(throws: DiscogsError.forbidden(message: notAllowedToView)) {
            _ = try await client.collectionFields(username: "someone-else")
        }
        let noPermission = "You don't have permission to access this resource."
        await #expect(throws: DiscogsError.forbidden(message: noPermission)) {
            _ = try await client.addToCollection(username: "someone-else", releaseID: 1)
        }
        await #expect(throws: DiscogsError.forbidden(message: noPermission)) {
            try await client.deleteInstance(username: "someone-else", DiscogsInstanceKey(folderID: 1, releaseID: 1, instanceID: theirs))
        }
        // Without credentials, even one's own collection is not shown.
        let anonymous = try testClient(server, credentials: nil)
        do {
            _ = try await anonymous.collectionFolders(username: owner)
            Issue.record("expected 403")
        } catch {
            #expect(error == .forbidden(message: notAllowedToView))
            #expect(error.description.contains("run `crates auth`"))
            #expect(!error.isRetryable)
        }
        #expect(try await server.collection.dump("someone-else").instances.map(\.instance_id) == [theirs])
        #expect(try await server.collection.stats().statuses == ["403": 6])
    }

    /// A public collection shows folder 0 to others, and nothing else; usernames with
    /// spaces and non-ASCII letters are percent-encoded into the path, and OAuth signs that
    /// path, a query value, a JSON body and a DELETE as the server verifies them.
    @Test func oauthAndEncodedUsernames() async throws {
        let server = try await DiscogsTestServer.start()
        let stranger = "Ünïcode user.name"
        try await server.collection.seed(#"{"username": "\#(stranger)", "public": true, "folders": [{"id": 3, "name": "Shelf"}], "instances": [{"release_id": 1, "folder_id": 3}]}"#)
        let ownID = try await server.collection.seed(#"{"instances": [{"release_id": 1}]}"#).instance_ids[0]

        let client = try await oauthClient(server)

        #expect(try await client.collectionFolders(username: stranger).map(\.id) == [0])
        #expect(try await client.collectionPage(username: stranger, page: 1).releases.map(\.releaseID) == [1])
        await #expect(throws: DiscogsError.forbidden(message: "You are not allowed to view this resource. Please authenticate as the owner to view this content.")) {
            _ = try await client.collectionPage(username: stranger, folderID: 3, page: 1)
        }
        await #expect(throws: DiscogsError.notFound(message: "User does not exist or may have been deleted.")) {
            _ = try await client.collectionFolders(username: "nobody/../\(owner)")
        }

        let key = DiscogsInstanceKey(folderID: 1, releaseID: 1, instanceID: ownID)
        try await client.setField(username: owner, key, fieldID: 3, value: "a&b=c d+e")
        try await client.editInstance(username: owner, key, rating: try Rating(3))
        let added = try await client.addToCollection(username: owner, releaseID: 10_507_194)
        try await client.deleteInstance(username: owner, key)
        let left = try await server.collection.dump().instances
        #expect(left.map(\.instance_id) == [added.instanceID])
        let stats = try await server.stats()
        #expect(stats.badSignatures == 0)
        #expect(stats.auth["oauth"] == 10)  // 2 for the token legs, 8 collection calls
    }

    /// Every collection request passes through the one limiter: the server counts as many as
    /// the limiter sent, never more in a window than the limit, and throttles none.
    @Test func pacingThroughTheLimiter() async throws {
        let server = try await DiscogsTestServer.start(["--limit", "4", "--window", "1"])
        try await seedInstances(server, count: 30)
        let limiter = RateLimiter(configuration: .init(limit: 4, window: 1))
        let client = try testClient(server, limiter: limiter)
        var pages = client.collectionPages(username: owner, perPage: 5)
        var keys: [DiscogsInstanceKey] = []
        while let page = try await pages.next() { keys += page.releases.map(\.key) }
        _ = try await client.collectionFields(username: owner)
        for key in keys.prefix(3) { try await client.editInstance(username: owner, key, rating: try Rating(1)) }
        try await client.deleteInstance(username: owner, keys[3])
        let stats = try await server.stats()
        let collection = try await server.collection.stats()
        let sent = await limiter.statistics.sent
        #expect(keys.count == 30)
        #expect(collection.requests == ["folder_releases": 6, "fields": 1, "edit": 3, "delete": 1])
        #expect(sent == 11 && stats.requests == 11)
        #expect(stats.throttled == 0)
        #expect(stats.maxInWindow <= 4)
    }

    /// The hold control: an add is carried out at once, its answer waits for the test. This
    /// is what a test of "killed between the POST and storing the instance id" needs.
    @Test func heldAnswersWaitForTheTest() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server)
        try await server.collection.hold("add")
        let name = owner
        let pending = Task { try await client.addToCollection(username: name, releaseID: 1) }
        try await waitUntil("the add's answer is held") { try await server.collection.stats().held == 1 }
        let stored = try await server.collection.dump().instances
        #expect(stored.count == 1)  // already in the collection, answer not yet sent
        try await server.collection.release()
        let added = try await pending.value
        #expect(added.instanceID == stored[0].instance_id)
        #expect(try await server.collection.stats().held == 0)
    }

    /// A 204 without body or content type passes the checks; a 2xx JSON answer still needs
    /// its JSON content type.
    @Test func noContentPassesTheResponseChecks() throws {
        let empty = HTTPResponse(status: 204, headers: HTTPHeaders(), body: Data(), effectiveURL: "http://127.0.0.1:1/x")
        try DiscogsClient.check(empty, expectedHost: "127.0.0.1", accept: .nothing)
        #expect(throws: DiscogsError.self) { try DiscogsClient.check(empty, expectedHost: "127.0.0.1", accept: .json) }
        let forbidden = HTTPResponse(
            status: 403, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data(#"{"message":"no"}"#.utf8),
            effectiveURL: "http://127.0.0.1:1/x")
        #expect(throws: DiscogsError.forbidden(message: "no")) { try DiscogsClient.check(forbidden, expectedHost: "127.0.0.1", accept: .nothing) }
    }

    @Test func errorMessagesSayWhatToDo() {
        #expect(DiscogsError.forbidden(message: "x").description.contains("another Discogs user"))
        #expect(DiscogsError.unprocessable(message: "Invalid value").description.hasPrefix("Discogs did not accept the value (Invalid value)"))
        #expect(!DiscogsError.unprocessable(message: "x").isRetryable)
        #expect(DiscogsClient.collectionPath("a b/ü") == "/users/a%20b%2F%C3%BC/collection")
    }
}
