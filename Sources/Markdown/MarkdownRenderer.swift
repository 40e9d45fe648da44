import CMarkdown

/// Markdown to HTML that is safe to put in a page. Discount escapes raw HTML in the source
/// (`MKD_NOHTML`) and drops links with unsafe schemes (`MKD_SAFELINK`); `HTMLSanitiser` then
/// keeps only an allowlist of tags and attributes, so a Discount quirk cannot open a hole.
public enum MarkdownRenderer {
    public static func html(_ markdown: String) -> String {
        guard !markdown.isEmpty else { return "" }
        let flags = mkd_flag_t(MKD_NOHTML | MKD_SAFELINK | MKD_FENCEDCODE | MKD_AUTOLINK | MKD_NOPANTS)
        let bytes = Array(markdown.utf8)
        let rendered: String? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { source in
                guard let document = mkd_string(source, Int32(bytes.count), flags) else { return nil }
                defer { mkd_cleanup(document) }
                guard mkd_compile(document, flags) != 0 else { return nil }
                var output: UnsafeMutablePointer<CChar>?
                let length = mkd_document(document, &output)
                guard length >= 0, let output else { return "" }
                // The buffer belongs to the document: copy it before mkd_cleanup frees it.
                return output.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
                }
            }
        }
        return HTMLSanitiser.clean(rendered ?? "")
    }
}
