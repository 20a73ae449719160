import Foundation
import Testing

/// flow translations of Hurl's integration tests (`integration/hurl/tests_ok/NAME.hurl` in
/// Orange-OpenSource/hurl), each run with the built `flow` against Hurl's own Flask server, whose
/// routes `assert` on the requests they get (a failed one answers 500). Each translation asserts
/// what its `.hurl` file asserts: status, headers, body, captures and asserts. The server is
/// started once for the suite; see `HurlServer` and `Tests/Peers/hurl/README.md`.
/// A test disabled here names the flow feature its translation waits for.
@Suite(.serialized, .hurlServer) struct HurlServerTests {
    /// The harness sees a route's failed `assert`: a wrong password makes flow fail.
    @Test func aTranslationThatSendsTheWrongRequestFails() async throws {
        let server = try #require(HurlServer.url)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-hurl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("wrong.yaml")
        try """
        version: 1
        steps:
          wrong:
            http:
              url: \(server)/basic-authentication
              auth: { basic: { user: bob@email.com, password: wrong } }
        """.write(to: file, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", file.path, "--no-journal", "--log-format", "plain"])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("got 500"), "\(outcome.stdout)")
    }

    @Test("assert_body") func assertBody() async throws {
        try await HurlServer.check(
            "assert_body",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              multiline:
                http: { url: /assert-body }
                expect:
                  status: 200
                  assert:
                    - "result.body == 'line1\nline2\nline3\n'"
              file:
                http: { url: /assert-body }
                expect:
                  status: 200
                  assert:
                    - result.base64 == 'bGluZTEKbGluZTIKbGluZTMK'   # the bytes of assert_body.bin
              crlf:
                http: { url: /assert-body-with-crlf }
                expect:
                  status: 200
                  assert:
                    - result.base64 == 'bGluZTEKbGluZTINCmxpbmUzCg=='
              explicit:
                http: { url: /assert-body }
                expect:
                  status: 200
                  assert:
                    - "result.body == 'line1\nline2\nline3\n'"
                    - result.base64 == 'bGluZTEKbGluZTIKbGluZTMK'   # assert_body.bin, and hex 6c696e65310a6c696e65320a6c696e65330a
            """#)
    }

    @Test("assert_match") func assertMatch() async throws {
        try await HurlServer.check(
            "assert_match",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              match:
                http: { url: /assert-match }
                expect:
                  status: 200
                  assert:
                    - matches(result.json.date1, '\d{4}-\d{2}-\d{2}')
                    - matches(result.json.date2, '\d{4}-\d{2}-\d{2}')
                    - matches(result.json.date1, '^\d{4}-\d{2}-\d{2}$')
                    - "!matches(result.json.date2, '^\\d{4}-\\d{2}-\\d{2}$')"
                    - matches(result.json.path1, 'aa/bb')
                    - matches(result.json.path2, 'aa\\bb')
            """#)
    }

    @Test("basic_authentication") func basicAuthentication() async throws {
        try await HurlServer.check(
            "basic_authentication",
            #"""
            defaults:
              http:
                base-url: "${{ env.HURL_SERVER }}"
                auth: { basic: { user: bob@email.com, password: secret } }   # hurl --user bob@email.com:secret
            steps:
              authenticated:
                http: { url: /basic-authentication }
                expect: { status: 200, assert: [result.body == 'You are authenticated'] }
            """#)
    }

    @Test("basic_authentication_per_request") func basicAuthenticationPerRequest() async throws {
        try await HurlServer.check(
            "basic_authentication_per_request",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              userinfo:
                http: { url: "${{ replace(env.HURL_SERVER, 'http://', 'http://bob%40email.com:secret@') }}/basic-authentication-per-request" }
                expect: { status: 200, assert: [result.body == 'You are authenticated'] }
              header:
                http:
                  url: /basic-authentication-per-request
                  headers: { Authorization: Basic Ym9iQGVtYWlsLmNvbTpzZWNyZXQ= }
                expect: { status: 200, assert: [result.body == 'You are authenticated'] }
              basic-auth:
                http:
                  url: /basic-authentication-per-request
                  auth: { basic: { user: bob@email.com, password: secret } }
                expect: { status: 200, assert: [result.body == 'You are authenticated'] }
              user-option:
                http:
                  url: /basic-authentication-per-request
                  auth: { basic: { user: "${{ 'bob@email.com' }}", password: "${{ 'secret' }}" } }
                expect: { status: 200, assert: [result.body == 'You are authenticated'] }
            """#)
    }

    @Test("capture_and_assert") func captureAndAssert() async throws {
        try await HurlServer.check(
            "capture_and_assert",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              capture:
                http: { url: /capture-and-assert }
                expect: { status: 200 }
                outputs:
                  content_type: ${{ result.headers['content-type'] }}
              assert:
                needs: capture
                http: { url: /capture-and-assert }
                expect:
                  status: 200
                  headers: { content-type: "${{ steps.capture.outputs.content_type }}" }
                  assert:
                    - result.headers['content-type'] == steps.capture.outputs.content_type
            """#)
    }

    @Test("cookie_storage") func cookieStorage() async throws {
        try await HurlServer.check(
            "cookie_storage",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              # @cookie_storage_set: localhost FALSE / FALSE 0 cookie1 valueA
              with-cookie1:
                http:
                  url: /cookie-storage/assert-that-cookie1-is-valueA
                  headers: { Cookie: cookie1=valueA }
                expect: { status: 200 }
              # @cookie_storage_clear
              without-cookie1:
                needs: with-cookie1
                http: { url: /cookie-storage/assert-that-cookie1-is-not-in-session }
                expect: { status: 200 }
            """#)
    }

    @Test("delay") func delay() async throws {
        try await HurlServer.check(
            "delay",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              init:
                http: { url: /delay-init }
                expect: { status: 200 }
              wait1: { needs: init, sleep: 1050ms }   # hurl --delay 1000
              first:
                needs: wait1
                http: { url: /delay }
                expect: { status: 200 }
              wait2: { needs: first, sleep: 1050ms }
              second:
                needs: wait2
                http: { url: /delay }
                expect: { status: 200 }
            """#)
    }

    @Test("entry") func entry() async throws {
        try await HurlServer.check(
            "entry",
            #"""
            # hurl --from-entry 2 --to-entry 4: entries 2 to 4 of entry.hurl
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              entries:
                for-each: ${{ range(2, 5) }}
                http: { url: "/to-entry/${{ item }}" }
                expect:
                  status: 200
                  assert:
                    - "result.body == format('Reached entry {0}\n', item)"
            """#)
    }

    @Test("expect") func expect() async throws {
        try await HurlServer.check(
            "expect",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              continue:
                http:
                  method: POST
                  url: /expect
                  headers: { Expect: 100-continue }
                  body: data
                expect: { status: 200 }
            """#)
    }

    @Test("float") func float() async throws {
        try await HurlServer.check(
            "float",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              float:
                http: { url: /float }
                expect:
                  status: 200
                  assert:
                    - result.json[1] == 0.0
                    - result.json[2] != 0.0
                    - result.json[2] == 0.0000000000000001
                    - result.json[3] == 0.000000000000001
                    - result.json[4] == 0.333
                    - result.json[4] != 0.3333333333333333
                    - result.json[5] == 0.3333333333333333
                    - result.json[5] == 0.333333333333333333    # exceeding floating-point precision in expected value
                    - result.json[6] == 0.333333333333333333    # exceeding floating-point precision in json response
                    - result.json[7] == 1.0
                    - result.json[7] == 1                       # using an expected integer
                    - result.json[8] == 1.001
                    - result.json[9] == 1.07
                    - result.json[9] == 1.070                   # additional trailing zero in expected value
                    - result.json[10] == 1.07                   # additional trailing zero in json response
                    - result.json[11] == 1.1
                    - result.json[12] == 1.5
            """#)
    }

    @Test("follow_redirect") func followRedirect() async throws {
        try await HurlServer.check(
            "follow_redirect",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}", follow-redirects: true }   # hurl --location
            steps:
              get:
                http: { url: /follow-redirect, headers: { Accept: text/plain } }
                expect: { status: 200, assert: [result.body == 'Followed redirect!'] }
              post-becomes-get:   # on 301, 302 and 303 the redirected request is a GET
                http: { method: POST, url: /follow-redirect, headers: { Accept: text/plain } }
                expect: { status: 200, assert: [result.body == 'Followed redirect!'] }
              post-308:
                http: { method: POST, url: /follow-redirect-308 }
                expect: { status: 200, assert: [result.body == 'Followed redirect POST!'] }
            """#)
    }

    @Test("form_params") func formParams() async throws {
        try await HurlServer.check(
            "form_params",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              form:
                http:
                  method: POST
                  url: /form-params
                  form:
                    param1: value1
                    param2: ""
                    param3: a=b
                    param4: a%3db
                    "values[0]": "0"
                    values[1]: "1"
                expect: { status: 200 }
              raw:
                http:
                  method: POST
                  url: /form-params
                  headers: { Content-Type: application/x-www-form-urlencoded }
                  body: param1=value1&param2=&param3=a%3db&param4=a%253db&values[0]=0&values[1]=1
                expect: { status: 200 }
            """#)
    }

    @Test("graphql") func graphql() async throws {
        try await HurlServer.check(
            "graphql",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              unnamed-query:
                http:
                  method: POST
                  url: /graphql
                  json:
                    query: "{\n  allFilms {\n    films {\n      title\n      director\n      releaseDate\n    }\n  }\n}"
                expect:
                  status: 200
                  assert:
                    - length(result.json.data.allFilms.films) == 6
                    - result.json.data.allFilms.films[0].title == 'A New Hope'
                    - result.json.data.allFilms.films[0].director == 'George Lucas'
                    - result.json.data.allFilms.films[0].releaseDate == '1977-05-25'
                    - result.json.data.allFilms.films[0].openingCrawl == null
                    - result.json.data.allFilms.films[1].title == 'The Empire Strikes Back'
                    - result.json.data.allFilms.films[2].title == 'Return of the Jedi'
              json-body:
                http:
                  method: POST
                  url: /graphql
                  headers: { Content-Type: application/json }
                  body: '{"query":"{\n  allFilms {\n    films {\n      title\n      director\n      releaseDate\n    }\n  }\n}"}'
                expect: { status: 200, assert: [length(result.json.data.allFilms.films) == 6] }
              full-syntax:
                http:
                  method: POST
                  url: /graphql
                  json:
                    query: "query Query {\n  allFilms {\n    films {\n      title\n      director\n      releaseDate\n    }\n  }\n}"
                expect: { status: 200, assert: [length(result.json.data.allFilms.films) == 6] }
              variables:
                http:
                  method: POST
                  url: /graphql
                  json:
                    query: "query Person($id: ID!) {\n  person(id: $id) {\n    name\n  }\n}"
                    variables: { id: cGVvcGxlOjQ= }
                expect: { status: 200, assert: [result.json.data.person.name == 'Darth Vader'] }
              templated-variables:
                http:
                  method: POST
                  url: /graphql
                  json:
                    query: "query Person($id: ID!) {\n  person(id: $id) {\n    name\n  }\n}"
                    variables: { id: "${{ 'cGVvcGxlOjQ=' }}" }
                expect: { status: 200, assert: [result.json.data.person.name == 'Darth Vader'] }
            """#)
    }

    @Test("include") func include() async throws {
        try await HurlServer.check(
            "include",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              include:
                http: { url: /include }
                expect: { status: 200, assert: [result.body == 'Hello'] }
            """#)
    }

    @Test("multilines") func multilines() async throws {
        try await HurlServer.check(
            "multilines",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              plain-text:
                http:
                  method: POST
                  url: /multilines/plain-text
                  body: |
                    line1
                    line2
                    line3
                expect:
                  status: 200
                  assert:
                    - "result.body == 'line1\nline2\nline3\n'"
              json:
                http:
                  method: POST
                  url: /multilines/json
                  body: |
                    {
                      "foo": "bar"
                      "baz": 123456
                    }
                expect:
                  status: 200
                  assert:
                    - "result.body == '{\n  \"foo\": \"bar\"\n  \"baz\": 123456\n}\n'"
              xml:
                http:
                  method: POST
                  url: /multilines/xml
                  body: |
                    <?xml version="1.0"?>
                    <catalog>
                        <book id="bk101">
                            <author>Gambardella, Matthew</author>
                            <title>XML Developer's Guide</title>
                            <genre>Computer</genre>
                            <price>44.95</price>
                            <publish_date>2000-10-01</publish_date>
                            <description>An in-depth look at creating applications
                            with XML.</description>
                        </book>
                    </catalog>
                expect:
                  status: 200
                  assert:
                    - "result.body == '<?xml version=\"1.0\"?>\n<catalog>\n    <book id=\"bk101\">\n        <author>Gambardella, Matthew</author>\n        <title>XML Developer''s Guide</title>\n        <genre>Computer</genre>\n        <price>44.95</price>\n        <publish_date>2000-10-01</publish_date>\n        <description>An in-depth look at creating applications\n        with XML.</description>\n    </book>\n</catalog>\n'"
              graphql:
                http:
                  method: POST
                  url: /multilines/graphql
                  json:
                    query: "{\n  hero {\n    name\n    # Queries can have comments!\n    friends {\n      name\n    }\n  }\n}"
                expect:
                  status: 200
                  assert:
                    - "result.body == '{\"query\":\"{\\n  hero {\\n    name\\n    # Queries can have comments!\\n    friends {\\n      name\\n    }\\n  }\\n}\"}'"
            """#)
    }

    @Test("multipart_form_data") func multipartFormData() async throws {
        try await HurlServer.check(
            "multipart_form_data",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              multipart:
                http:
                  method: POST
                  url: /multipart-form-data
                  multipart:
                    key1: value1
                    upload1: { file: "${{ env.HURL_FILES }}/data.txt" }
                    upload2: { file: "${{ env.HURL_FILES }}/data.html" }
                    upload3: { file: "${{ env.HURL_FILES }}/data.txt", content-type: text/html }
                expect: { status: 200 }
              by-hand:
                http:
                  method: POST
                  url: /multipart-form-data
                  headers: { Content-Type: 'multipart/form-data; boundary="boundary"' }
                  body: |
                    --boundary
                    Content-Disposition: form-data; name="key1"

                    value1
                    --boundary
                    Content-Disposition: form-data; name="upload1"; filename="data.txt"
                    Content-Type: text/plain

                    Hello World!
                    --boundary
                    Content-Disposition: form-data; name="upload2"; filename="data.html"
                    Content-Type: text/html

                    <div>Hello <b>World</b>!</div>
                    --boundary
                    Content-Disposition: form-data; name="upload3"; filename="data.txt"
                    Content-Type: text/html

                    Hello World!
                    --boundary--
                expect: { status: 200 }
            """#)
    }

    @Test("no_output") func noOutput() async throws {
        try await HurlServer.check(
            "no_output",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              no-output:
                http: { url: /no-output }
                expect: { status: 200 }
            """#)
    }

    @Test("non_utf8") func nonUtf8() async throws {
        try await HurlServer.check(
            "non_utf8",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              non-utf8:
                http: { url: /non-utf8 }
                expect: { status: 200 }
            """#)
    }

    @Test("output") func output() async throws {
        try await HurlServer.check(
            "output",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              endpoint1:
                http:
                  method: POST
                  url: /output/endpoint1
                  headers: { Content-Type: application/json }   # what hurl infers from a JSON body
                  body: '{ "user": "bob" }'
                expect: { status: 200 }
              endpoint2:
                needs: endpoint1
                http: { url: /output/endpoint2 }
                expect: { status: 200 }
            """#)
    }

    @Test("patch") func patch() async throws {
        try await HurlServer.check(
            "patch",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              patch:
                http:
                  method: PATCH
                  url: /patch/file.txt
                  headers:
                    Host: www.example.com
                    Content-Type: application/example
                    If-Match: '"e0023aa4e"'
                expect:
                  status: 204
                  headers:
                    Content-Location: /file.txt
                    ETag: '"e0023aa4f"'
            """#)
    }

    @Test("post_file") func postFile() async throws {
        try await HurlServer.check(
            "post_file",
            #"""
            inputs:
              filename: { default: data.bin }   # hurl --variable filename=data.bin
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              file:
                http: { method: POST, url: /post-file, body-file: "${{ env.HURL_FILES }}/data.bin" }
                expect: { status: 200 }
              templated:
                http: { method: POST, url: /post-file, body-file: "${{ env.HURL_FILES }}/${{ inputs.filename }}" }
                expect: { status: 200 }
              with-space:
                http: { method: POST, url: /post-file, body-file: "${{ env.HURL_FILES }}/post_file_with space" }
                expect: { status: 200 }
            """#)
    }

    @Test("post_json") func postJson() async throws {
        try await HurlServer.check(
            "post_json",
            #"""
            inputs:   # hurl --variable age=30 --variable strict=true --variable string_variable=\
              age: { type: number, default: 30 }
              strict: { type: boolean, default: true }
              string_variable: { default: \ }
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}", headers: { Content-Type: application/json } }
            steps:
              object:
                http:
                  method: POST
                  url: /post-json
                  # The body as written in post_json.hurl (hurl sends a JSON body as written; flow's `json`
                  # would write it again), with the variable inside the JSON string escaped as JSON.
                  body: |-
                    {
                        "name": "Bob",
                        "password": "&secret\\'<>",
                        "age": 30,
                        "strict": true,
                        "spacing": "\n",
                        "g_clef": "\uD834\uDD1E",
                        "items": [true, "true", 1],
                        "variable": "${{ replace(inputs.string_variable, '\', '\\') }}"
                    }
                expect: { status: 200 }
              array:
                http: { method: POST, url: /post-json-array, body: "[1,2,3]" }
                expect: { status: 200 }
              array-empty:
                http: { method: POST, url: /post-json-array-empty, body: "[]" }
                expect: { status: 200 }
              string:
                http: { method: POST, url: /post-json-string, body: '"Hello"' }
                expect: { status: 200 }
              number:
                http: { method: POST, url: /post-json-number, body: "100" }
                expect: { status: 200 }
              numbers:
                http:
                  method: POST
                  url: /post-json-numbers
                  body: |-
                    {
                        "natural": 100,
                        "negative": -1,
                        "float": "3.333333333333333",
                        "exponent": 100e100
                    }
                expect: { status: 200 }
              boolean:
                http: { method: POST, url: /post-json-boolean, body: "true" }
                expect: { status: 200 }
              get-name:
                http: { url: /get-name }
                expect: { status: 200 }
                outputs: { name: "${{ result.body }}" }
              check-name:
                needs: get-name
                http:
                  method: POST
                  url: /check_name
                  body: |-
                    {
                        "name": "${{ steps.get-name.outputs.name }}"
                    }
            """#)
    }

    @Test("post_multilines") func postMultilines() async throws {
        try await HurlServer.check(
            "post_multilines",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              post:
                http:
                  method: POST
                  url: /post-multilines
                  body: |
                    name,age
                    bob,10
                    bill,22
                expect: { status: 200 }
              get-bob-age:
                http: { url: /get-bob-age }
                expect: { status: 200 }
                outputs: { bob_age: "${{ result.body }}" }
              post-template:
                needs: get-bob-age
                http:
                  method: POST
                  url: /post-multilines
                  body: |
                    name,age
                    bob,${{ steps.get-bob-age.outputs.bob_age }}
                    bill,22
                expect: { status: 200 }
            """#)
    }

    @Test("predicates_string") func predicatesString() async throws {
        try await HurlServer.check(
            "predicates_string",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              string:
                http: { url: /predicates-string }
                expect:
                  status: 200
                  assert:
                    - result.body == 'Hello World!'
                    - startsWith(result.body, 'Hello')
                    - endsWith(result.body, '!')
                    - contains(result.body, 'llo')
                    - matches(result.body, 'Hello [a-zA-Z]+!')
              empty:
                http: { url: /predicates-string-empty }
                expect:
                  status: 200
                  assert:
                    - result.body == ''
                    - result.body != null
              unicode:
                http: { url: /predicates-string-unicode }
                expect:
                  status: 200
                  assert:
                    - "result.body == '\u2708'"
                    - result.bytes == 3
            """#)
    }

    @Test("put") func put() async throws {
        try await HurlServer.check(
            "put",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              put:
                http: { method: PUT, url: /put }
                expect: { status: 200, assert: [result.body == ''] }
            """#)
    }

    @Test("querystring_params") func querystringParams() async throws {
        try await HurlServer.check(
            "querystring_params",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              query:
                http:
                  url: /querystring-params
                  query: { param1: value1, param2: "", param3: a=b, param4: "1,2,3", $top: "5" }
                expect: { status: 200 }
              raw:
                http: { url: "/querystring-params?param1=value1&param2=&param3=a%3db&param4=1,2,3&$top=5" }
                expect: { status: 200 }
              combined:
                http:
                  url: /querystring-params?param1=value1
                  query: { param2: "", param3: a=b, param4: "1,2,3", $top: "5" }
                expect: { status: 200 }
              encoded-slash:
                http:
                  url: /querystring-params-encoded?value1=/&value2=%2F
                  query: { value3: / }
                expect: { status: 200 }
            """#)
    }

    @Test("redirect") func redirect() async throws {
        try await HurlServer.check(
            "redirect",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}", follow-redirects: false }   # hurl's default
            steps:
              redirected:
                http: { url: /redirected }
                expect:
                  status: 200
                  assert:
                    - result.url == format('{0}/redirected', env.HURL_SERVER)
                    - result.body == 'Redirected'
              absolute:
                http: { url: /redirect-absolute }
                expect:
                  status: 302
                  headers: { Location: "${{ env.HURL_SERVER }}/redirected" }
                  assert:
                    - result.url == format('{0}/redirect-absolute', env.HURL_SERVER)
              absolute-followed:
                http: { url: /redirect-absolute, follow-redirects: true }   # [Options] location: true
                expect:
                  status: 200
                  assert:
                    - result.url == format('{0}/redirected', env.HURL_SERVER)
                    - result.body == 'Redirected'
              relative:
                http: { url: /redirect-relative }
                expect:
                  status: 302
                  headers: { Location: /redirected }
                  assert:
                    - result.url == format('{0}/redirect-relative', env.HURL_SERVER)
              relative-followed:
                http: { url: /redirect-relative, follow-redirects: true }
                expect:
                  status: 200
                  assert:
                    - result.url == format('{0}/redirected', env.HURL_SERVER)
                    - result.body == 'Redirected'
            """#)
    }

    @Test("request_content_length") func requestContentLength() async throws {
        try await HurlServer.check(
            "request_content_length",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              content-length:
                http:
                  method: POST
                  url: /request-content-length
                  headers: { Content-Length: "1" }
                  body: Hello
            """#)
    }

    @Test("retry") func retry() async throws {
        try await HurlServer.check(
            "retry",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              create:
                http: { method: POST, url: /jobs }
                expect: { status: 201, assert: [result.json.state == 'RUNNING'] }
                outputs: { job_id: "${{ result.json.id }}" }
              poll:   # hurl --retry 10 --retry-interval 100
                needs: create
                http: { url: "/jobs/${{ steps.create.outputs.job_id }}" }
                expect: { status: 200 }
                repeat: { until: "result.json.state == 'COMPLETED'", every: 100ms, max-attempts: 10 }
              delete:
                needs: [create, poll]
                http: { method: DELETE, url: "/jobs/${{ steps.create.outputs.job_id }}" }
                expect: { status: 200 }
              gone:
                needs: [create, delete]
                http: { url: "/jobs/${{ steps.create.outputs.job_id }}" }
                expect: { status: 404 }
            """#)
    }

    @Test("retry_until_200") func retryUntil200() async throws {
        try await HurlServer.check(
            "retry_until_200",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              until-200:
                http: { url: /retry/until-200 }
                retry: { attempts: 5, delay: 100ms }   # [Options] retry: 4 (4 retries after the first attempt)
                expect: { status: 200, assert: [result.body == 'OK'] }
            """#)
    }

    @Test("skip") func skip() async throws {
        try await HurlServer.check(
            "skip",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              init:
                http: { url: /skip/init }
                expect: { status: 200, assert: [result.body == '0'] }
              skipped-increment:   # [Options] skip: true
                needs: init
                if: false
                http: { url: /skip/increment }
                expect: { status: 200, assert: [result.body == 'whatever'] }
              get-0:
                needs: [init, skipped-increment]
                if: ${{ !failure() && !cancelled() && steps.init.status == 'succeeded' }}
                http: { url: /skip/get }
                expect: { status: 200, assert: [result.body == '0'] }
              increment:   # [Options] skip: false
                needs: get-0
                http: { url: /skip/increment }
                expect: { status: 200, assert: [result.body == '1'] }
              get-1:
                needs: increment
                http: { url: /skip/get }
                expect: { status: 200, assert: [result.body == '1'] }
            """#)
    }

    @Test("stdout") func stdout() async throws {
        try await HurlServer.check(
            "stdout",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              text:
                http: { url: /stdout/text }
                expect: { status: 200, assert: [result.body == 'Hello'] }
            """#)
    }

    @Test("url") func url() async throws {
        try await HurlServer.check(
            "url",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              tilde:
                http: { url: /~user }
                expect: { status: 200, assert: [result.body == 'user'] }
              encoded-tilde:
                http: { url: /%7Euser }
                expect: { status: 200, assert: [result.body == 'user'] }
              weird:
                http: { url: "/!$&()*+,;=:@[]" }
                expect: { status: 200, assert: [result.body == 'weird'] }
            """#)
    }

    @Test("user_agent") func userAgent() async throws {
        try await HurlServer.check(
            "user_agent",
            #"""
            defaults:   # hurl --user-agent "Mozilla/5.0 A"
              http: { base-url: "${{ env.HURL_SERVER }}", headers: { User-Agent: Mozilla/5.0 A } }
            steps:
              a:
                http: { url: /user-agent/a }
                expect: { status: 200 }
              b:
                needs: a
                http: { url: /user-agent/b, headers: { User-Agent: Mozilla/5.0 B } }
                expect: { status: 200 }
              a-again:
                needs: b
                http: { url: /user-agent/a }
                expect: { status: 200 }
            """#)
    }

    @Test("variables") func variables() async throws {
        try await HurlServer.check(
            "variables",
            #"""
            # hurl --variables-file variables0.properties --variables-file variables1.properties --variable female=true
            inputs:
              name: { default: Jennifer }
              age: { type: number, default: 30 }
              height: { type: number, default: 1.70 }
              female: { type: boolean, default: true }
              my-id: { default: "123" }
              galaxy: { default: Milky Way }
            env:   # [Options] variable: country=Italy, variable: planet=The Earth
              country: Italy
              planet: The Earth
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              variables:
                http:
                  method: POST
                  url: /variables
                  headers:
                    Content-Type: application/json
                    Name: ${{ inputs.name }}
                    Age: ${{ inputs.age }}
                    Height: ${{ inputs.height }}
                    Female: ${{ inputs.female }}
                    Id: ${{ inputs.my-id }}
                    A-Null: ${{ toJSON(null) }}
                    Country: ${{ env.country }}
                    Planet: ${{ env.planet }}
                    Galaxy: ${{ inputs.galaxy }}
                  body: |
                    {
                      "name": "${{ inputs.name }}",
                      "age": ${{ inputs.age }},
                      "height": ${{ inputs.height }},
                      "female": ${{ inputs.female }},
                      "id": "${{ inputs.my-id }}",
                      "a_null": ${{ toJSON(null) }},
                      "country": "${{ env.country }}",
                      "planet": "${{ env.planet }}",
                      "galaxy": "${{ inputs.galaxy }}"
                    }
                expect:
                  status: 200
                  assert:
                    - inputs.name == 'Jennifer'
                    - inputs.female == true
                    - inputs.age == 30
                    - inputs.height == 1.70
                    - inputs.my-id == '123'
                    - env.country == 'Italy'
                    - env.planet == 'The Earth'
                    - inputs.galaxy == 'Milky Way'
              country:
                needs: variables
                http: { url: /variable/country }
                expect: { status: 200, assert: [result.body == env.country] }
              planet:
                needs: variables
                http: { url: /variable/planet }
                expect: { status: 200, assert: [result.body == env.planet] }
            """#)
    }

    @Test("verbose") func verbose() async throws {
        try await HurlServer.check(
            "verbose",
            #"""
            defaults:
              http: { base-url: "${{ env.HURL_SERVER }}" }
            steps:
              verbose:
                http: { url: /verbose }
            """#)
    }
}
