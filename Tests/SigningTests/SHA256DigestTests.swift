import Signing
import Testing

@Suite struct SHA256DigestTests {
    @Test func matchesTheKnownTestVectors() {
        #expect(SHA256Digest.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
