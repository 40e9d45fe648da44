@testable import App
import Testing

/// Sizes of log lines as the settings page and the audit log state them.
@Suite struct ByteCountTextTests {
    @Test(arguments: [
        (0, "0 bytes"), (1, "1 byte"), (52, "52 bytes"), (1_023, "1023 bytes"),
        (1_024, "1.0 KB"), (1_536, "1.5 KB"), (1 << 20, "1 MB"), (200 << 20, "200 MB"), (3 << 19, "1.5 MB"),
    ])
    func sizesAreStatedInTheUnitThatShowsThem(bytes: Int, text: String) {
        #expect(ByteCountText.megabytes(bytes) == text)
    }
}
