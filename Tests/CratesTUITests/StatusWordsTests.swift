import CratesCore
import Testing

@testable import CratesTUI

/// The status line's words are the UI's, but the rate limit and offline states are worded
/// once, in `StatusWording`, for the status line and the commands' progress alike.
@Suite("Status words")
struct StatusWordsTests {
    @Test("the status line and the commands' progress word the rate limit alike")
    func rateLimitWording() {
        let progress = LookupStatus.rateLimited(seconds: 8).description
        let statusLine = DiscogsStatus(.rateLimited(seconds: 8), username: nil).text
        #expect(progress == statusLine)
        #expect(progress == "Discogs: rate limit: resuming in 8 s")
        #expect(LookupStatus.offline(waiting: 2).description.hasPrefix(DiscogsStatus.offline.text))
    }

    @Test("the key that signs in is named by the UI, not by the state")
    func signInKey() {
        #expect(DiscogsStatus.notSignedIn.text.contains("(A or `crates auth`)"))
        #expect(DiscogsStatus.notSignedIn.fullReleaseComes == "comes from Discogs once you sign in (A)")
    }
}
