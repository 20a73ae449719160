internal import Hummingbird

/// XML and HTML documents for `xpath()` and `htmlXPath()`, with HTTP dates for `toDate()`.
///
/// - `GET /documents/books.xml`: a book in a default namespace with a prefixed one (Hurl's
///   namespace test), `Content-Type: application/xml`.
/// - `GET /documents/page.html`: a small HTML page that is not XML (unclosed `<li>`, a `<br>`),
///   `Content-Type: text/html; charset=utf-8`.
/// Both send `Last-Modified: Wed, 21 Oct 2015 07:28:00 GMT`.
enum DocumentRoutes {
    static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

    static let books = """
        <?xml version="1.0"?>
        <book xmlns='urn:loc.gov:books' xmlns:isbn='urn:ISBN:0-395-36341-6'>
            <title>Cheaper by the Dozen</title>
            <isbn:number>1568491379</isbn:number>
            <price currency="EUR">12.50</price>
        </book>

        """

    static let page = """
        <!DOCTYPE html>
        <html><head><title>Café &amp; books</title></head>
        <body><h1 id="top">Books</h1>
        <ul><li class="new">Cheaper by the Dozen<li>Belles on Their Toes</ul>
        <a href="/documents/books.xml">the book as XML</a><br>
        </body></html>

        """

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        router.get("documents/books.xml") { _, _ in document(books, type: "application/xml") }
        router.get("documents/page.html") { _, _ in document(page, type: "text/html; charset=utf-8") }
    }

    private static func document(_ text: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .lastModified: lastModified],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
