import CratesTestSupport
import CratesCore
import Foundation
import Testing

@testable import CratesNet

/// Recorded Discogs collection answers (Fixtures/discogs/collection) decode as crates reads
/// them, and the loopback server speaks the same way.
@Suite struct DiscogsCollectionFixtureTests {
    @Test func recordedFolders() throws {
        let folders = try JSONDecoder().decode(DiscogsCollectionFolders.self, from: fixture("collection/folders-2022.json")).folders
        #expect(folders == [DiscogsCollectionFolder(id: 0, name: "All", count: 245), DiscogsCollectionFolder(id: 1, name: "Uncategorized", count: 245)])
    }

    @Test func recordedAddAnswer() throws {
        let added = try JSONDecoder().decode(DiscogsAddedInstance.self, from: fixture("collection/add-release-201-2022.json"))
        #expect(added.instanceID == 1_089_887_351)
        let instance = try #require(added.instance)
        #expect(instance.key == DiscogsInstanceKey(folderID: 1, releaseID: 213_658, instanceID: 1_089_887_351))
        #expect(instance.addedAt == UTCTimestamp.parse("2022-07-28 11:28:27"))
        let release = instance.release()
        #expect(release.artist == "Prometheus" && release.title == "Robot.O.Chan" && release.year == 2004)
        #expect(release.formats == ["CD, Album"])
        #expect(release.labels == [.init(name: "Twisted Records", catno: "TWSCD25")])
        #expect(release.genres.isEmpty)  // this answer's basic_information carries no genres
        #expect(release.url == "https://www.discogs.com/release/213658")
    }

    /// The server's 403 for a private collection is the recorded one, word for word.
    @Test func theServersForbiddenMessageIsDiscogs() async throws {
        let recorded = try JSONDecoder().decode(DiscogsMessage.self, from: fixture("collection/403-folders-unauthenticated-2026.json")).message
        let server = try await DiscogsTestServer.start()
        await #expect(throws: DiscogsError.forbidden(message: recorded)) {
            _ = try await testClient(server, credentials: nil).collectionFolders(username: CollectionServerControl.owner)
        }
    }
}
