import CratesCore
import CratesTestSupport
import Foundation
import Synchronization
import Testing

@testable import CratesNet

/// `CurlTransport.stream`: a body handed to a receiver as it comes (a download of any size
/// never held in memory), against the loopback data site.
@Suite struct CurlStreamTests {
    /// Collects what the transport hands over, in order.
    final class Collecting: HTTPBodyReceiver, Sendable {
        let accept: Bool
        let state = Mutex<(begun: [Int], body: Data, calls: Int)>(([], Data(), 0))

        init(accept: Bool) { self.accept = accept }

        func responseBegins(status: Int, headers: HTTPHeaders) -> Bool {
            state.withLock { $0.begun.append(status) }
            return accept
        }

        func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
            state.withLock { state in
                state.body.append(contentsOf: bytes)
                state.calls += 1
            }
            return true
        }
    }

    static let file = DiscogsDumpDate(digits: "20260601") ?? DiscogsDumpDate.firstOfMonth(containing: Date())

    @Test("the body comes in pieces, in order, byte for byte as sent")
    func wholeBody() async throws {
        let site = try await DataSiteTestServer.start()
        let receiver = Collecting(accept: true)
        let url = DiscogsDataSite(base: site.base).url(of: Self.file.releasesFileName, date: Self.file)
        let result = try await testTransport().stream(HTTPRequest(url: url), options: HTTPStreamOptions(), into: receiver)
        #expect(result.status == 200 && !result.refused)
        #expect(result.headers["Content-Type"] == "application/x-gzip")
        let stats = try await site.stats()
        let (begun, body, calls) = receiver.state.withLock { $0 }
        #expect(begun == [200])
        #expect(body.count == stats.size && calls > 1, "\(calls) pieces")
        let digest = SHA256Digest()
        body.withUnsafeBytes { digest.update($0) }
        #expect(digest.finish() == stats.sha256)
    }

    @Test("a receiver that refuses at the headers: no byte of the body is handed over, refused is said")
    func refusedAtTheHeaders() async throws {
        let site = try await DataSiteTestServer.start()
        let receiver = Collecting(accept: false)
        let url = DiscogsDataSite(base: site.base).url(of: Self.file.releasesFileName, date: Self.file)
        let result = try await testTransport().stream(HTTPRequest(url: url), options: HTTPStreamOptions(), into: receiver)
        #expect(result.status == 200 && result.refused)
        let (begun, body, _) = receiver.state.withLock { $0 }
        #expect(begun == [200] && body.isEmpty)
    }

    @Test("a connection dropped mid-body: connectionLost (transient), the bytes before it handed over")
    func dropped() async throws {
        let site = try await DataSiteTestServer.start()
        try await site.drop(after: 20_000)
        let receiver = Collecting(accept: true)
        let url = DiscogsDataSite(base: site.base).url(of: Self.file.releasesFileName, date: Self.file)
        await #expect {
            _ = try await testTransport().stream(HTTPRequest(url: url), options: HTTPStreamOptions(), into: receiver)
        } throws: { error in
            (error as? TransportError).map { if case .connectionLost = $0 { true } else { false } } ?? false
        }
        #expect(receiver.state.withLock { $0.body.count } == 20_000)
    }

    @Test("SHA-256 of known vectors (FIPS 180-4 examples)")
    func sha256Vectors() {
        func hex(_ text: String) -> String? {
            let digest = SHA256Digest()
            Array(text.utf8).withUnsafeBytes { digest.update($0) }
            return digest.finish()
        }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
