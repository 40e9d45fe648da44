import Foundation

/// The command-line tools the device-identity tests check our output against (OpenSSL,
/// Python's `cryptography`), run in a scratch folder of their own.
struct Tools {
    static let openssl = "/usr/bin/openssl"
    static let python = "/usr/bin/python3"
    static var hasOpenSSL: Bool { FileManager.default.isExecutableFile(atPath: openssl) }
    static var hasPythonCryptography: Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let tools = Tools()
        defer { tools.remove() }
        return tools.run([python, "-c", "import cryptography"]) == 0
    }

    /// `apt-get install scep`; the relay script also needs Python and the openssl command.
    static var hasSCEPClient: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/scepclient") && hasOpenSSL && FileManager.default.isExecutableFile(atPath: python)
    }

    let folder: URL

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("signing-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ bytes: [UInt8], to name: String) throws { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
    func write(_ text: String, to name: String) throws { try write(Array(text.utf8), to: name) }
    func read(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: folder.appendingPathComponent(name))) }

    /// Runs a command in the folder and answers its wait status (0: exited with 0); its
    /// standard error goes to `stderr.txt` for the failure message. `posix_spawn`, not
    /// `Process`, for the reason `ProfileSignerTests.run` gives.
    @discardableResult
    func run(_ arguments: [String]) -> Int32 { wait(start(arguments)) }

    /// Starts a command without waiting for it (-1 when it could not start).
    func start(_ arguments: [String]) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, path("stderr.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // The shell changes into the folder (Glibc's addchdir is not visible to Swift).
        let shell = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder.path] + arguments
        var argv = shell.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, shell[0], &actions, nil, &argv, environ) == 0 else { return -1 }
        return pid
    }

    /// The wait status of a started command.
    func wait(_ pid: pid_t) -> Int32 {
        guard pid > 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status
    }

    var lastError: String { (try? String(contentsOfFile: path("stderr.txt"), encoding: .utf8)) ?? "" }

    /// A DER PKCS#10 request for a new RSA key (kept as `key.pem`), with a challenge when given.
    func makeRequest(commonName: String = "device", challenge: String? = nil, utf8: Bool = false, bits: Int = 2048) throws -> [UInt8] {
        var config = "[req]\nprompt = no\ndistinguished_name = dn\nstring_mask = \(utf8 ? "utf8only" : "default")\n"
        if challenge != nil { config += "attributes = attrs\n" }
        config += "[dn]\nCN = \(commonName)\n"
        if let challenge { config += "[attrs]\nchallengePassword = \(challenge)\n" }
        try write(config, to: "req.cnf")
        let status = run([Self.openssl, "req", "-new", "-newkey", "rsa:\(bits)", "-nodes", "-keyout", "key.pem", "-config", "req.cnf"]
            + (utf8 ? ["-utf8"] : []) + ["-outform", "DER", "-out", "request.der"])
        guard status == 0 else { throw ToolFailure(message: lastError) }
        return try read("request.der")
    }
}

struct ToolFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
