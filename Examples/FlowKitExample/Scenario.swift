/// The seeds' scenario as a workflow: what the app used to write with callbacks on a background
/// queue, declared once and run in-process by FlowKit.
enum Scenario {
    static let yaml = """
        version: 1
        name: flowkit-example
        inputs:
          api: { type: string, required: true }
          file: { type: string, required: true }
        defaults:
          http: { base-url: "${{ inputs.api }}", timeout: 10s }
        steps:
          login:
            http:
              method: POST
              url: /login
              json: { user: demo, password: "${{ secrets.PASSWORD }}" }
            outputs:
              auth: Bearer ${{ result.json.token }}

          # Two requests in parallel once logged in ...
          users:
            needs: login
            http: { url: /api/users, headers: { Authorization: "${{ steps.login.outputs.auth }}" } }
            outputs: { all: "${{ result.json }}" }
          reports:
            needs: login
            http: { url: /api/reports, headers: { Authorization: "${{ steps.login.outputs.auth }}" } }
            outputs: { all: "${{ result.json }}" }

          # ... joined: the app's own Swift code (a host step) processes both before the import.
          prepare:
            needs: [users, reports]
            call: prepare-import
            with: { users: "${{ steps.users.outputs.all }}", reports: "${{ steps.reports.outputs.all }}" }
          import:
            needs: prepare
            http:
              method: POST
              url: /import
              json: { users: "${{ steps.prepare.outputs.users }}", reports: "${{ steps.prepare.outputs.reports }}" }
            expect: { status: 202 }

          # A file uploaded in 100 KiB chunks (tus); the app draws the progress bar from the events.
          upload:
            needs: import
            upload:
              file: ${{ inputs.file }}
              url: /uploads/tus
              protocol: tus
              chunk-size: 100KiB
            outputs: { location: "${{ result.location }}" }

          # One more request.
          notify:
            needs: upload
            http: { method: POST, url: /notify, json: { file: "${{ steps.upload.outputs.location }}" } }

          # A race of two mirrors: the first to succeed wins, the other is cancelled.
          mirror:
            needs: notify
            parallel: any
            steps:
              eu: { http: { url: "/mirror/eu?ms=50&status=503" } }
              us: { http: { url: "/mirror/us?ms=100" } }
        """
}
