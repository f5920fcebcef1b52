import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

@Suite struct CredentialStoreTests {
    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test func xdgConfigHomeThenHome() throws {
        #expect(try CredentialStore.configDirectory(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"]) == "/x/cfg/crates")
        #expect(try CredentialStore.configDirectory(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.config/crates")
        #expect(try CredentialStore.configDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.config/crates")
        #expect(throws: CredentialStoreError.noConfigDirectory) { try CredentialStore.configDirectory(environment: [:]) }
    }

    @Test(arguments: [
        DiscogsCredentials.personalToken("tok"), .consumer(key: "k", secret: "s"),
        .oauth(consumerKey: "ck", consumerSecret: "cs", token: "t", tokenSecret: "ts"),
    ])
    func savesPrivatelyAndReadsBack(credentials: DiscogsCredentials) throws {
        let directory = try TemporaryDirectory()
        let root = directory.path
        let store = CredentialStore(directory: root + "/crates")
        #expect(try store.load() == nil)
        try store.save(StoredCredentials(credentials: credentials, username: "someone"))
        #expect(try store.load() == StoredCredentials(credentials: credentials, username: "someone"))
        #expect(try mode(store.path) == 0o600)
        #expect(try mode(store.directory) == 0o700)
        // No temporary file left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory) == ["credentials.json"])
        #expect(try store.delete())
        #expect(try store.delete() == false)
    }

    @Test func replacesAtomicallyAndTightensModes() throws {
        let directory = try TemporaryDirectory()
        let root = directory.path
        let store = CredentialStore(directory: root)
        chmod(root, 0o755)
        try store.save(StoredCredentials(credentials: .personalToken("one"), username: nil))
        chmod(store.path, 0o644)
        _ = try store.load()
        #expect(try mode(store.path) == 0o600)
        try store.save(StoredCredentials(credentials: .personalToken("two"), username: "u"))
        #expect(try store.load()?.credentials == .personalToken("two"))
        #expect(try mode(root) == 0o700)
    }

    /// A symbolic link in the credentials' place is neither followed nor chmod-ed: the file it
    /// points to (here one of the user's, readable by all) keeps its mode (issue 12).
    @Test func aLinkedCredentialsFileIsRefusedAndItsTargetLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let root = directory.path
        let store = CredentialStore(directory: root)
        let target = root + "/notes.txt"
        try Data("not credentials\n".utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o644)
        #expect(symlink(target, store.path) == 0)
        let error = #expect(throws: CredentialStoreError.self) { try store.load() }
        #expect(error?.description.contains("symbolic link") == true)
        #expect(try mode(target) == 0o644)
        // Saving replaces the link with a file of its own; the target is untouched.
        try store.save(StoredCredentials(credentials: .personalToken("t"), username: nil))
        #expect(try store.load()?.credentials == .personalToken("t"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "not credentials\n")
        #expect(try mode(target) == 0o644)
    }

    @Test func aForeignFileIsMalformed() throws {
        let directory = try TemporaryDirectory()
        let root = directory.path
        let store = CredentialStore(directory: root)
        try Data(#"{"kind": "token"}"#.utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(throws: CredentialStoreError.malformed(path: store.path)) { try store.load() }
    }

    @Test func consumerFromEnvironmentThenConfigFile() throws {
        let directory = try TemporaryDirectory()
        let root = directory.path
        #expect(DiscogsConsumer.resolve(environment: [:], configDirectory: root) == nil)
        try Data(#"{"discogs_consumer_key": "fk", "discogs_consumer_secret": "fs", "other": 1}"#.utf8).write(to: URL(fileURLWithPath: root + "/config.json"))
        #expect(DiscogsConsumer.resolve(environment: [:], configDirectory: root) == DiscogsConsumer(key: "fk", secret: "fs"))
        let env = ["CRATES_DISCOGS_CONSUMER_KEY": "ek", "CRATES_DISCOGS_CONSUMER_SECRET": "es"]
        #expect(DiscogsConsumer.resolve(environment: env, configDirectory: root) == DiscogsConsumer(key: "ek", secret: "es"))
    }

    @Test func endpointsFromEnvironment() {
        #expect(DiscogsEndpoints(environment: [:]) == .production)
        let e = DiscogsEndpoints(environment: ["CRATES_DISCOGS_API": "http://127.0.0.1:9/", "CRATES_DISCOGS_WEB": "http://127.0.0.1:9"])
        #expect(e.api == "http://127.0.0.1:9" && e.web == "http://127.0.0.1:9")
    }
}

@Suite struct CredentialRedactionTests {
    @Test func printingCredentialsNeverShowsSecrets() {
        let all: [DiscogsCredentials] = [
            .personalToken("tok-SECRET"), .consumer(key: "key", secret: "cs-SECRET"),
            .oauth(consumerKey: "key", consumerSecret: "cs-SECRET", token: "tok-SECRET", tokenSecret: "ts-SECRET"),
        ]
        for c in all {
            let texts = ["\(c)", String(describing: c), String(reflecting: c), "\(StoredCredentials(credentials: c, username: "u"))"]
            #expect(texts.allSatisfy { !$0.contains("SECRET") })
        }
    }
}
