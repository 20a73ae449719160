internal import CCurlShim

// curl's C callbacks. Each gets its `Transfer` back from the context pointer set with the
// matching `*DATA` option, and runs on the loop thread inside `curl_multi_perform`.

func transferWriteBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    // Returning fewer bytes than given makes curl fail the transfer with CURLE_WRITE_ERROR.
    return Transfer.from(context).receiveBody(bytes) ? size * count : 0
}

func transferWriteHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    Transfer.from(context).receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
    return size * count
}

func transferReadBody(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context, let buffer else { return Int(CURL_READFUNC_ABORT) }
    guard let read = Transfer.from(context).body.read(into: buffer, capacity: size * count) else {
        return Int(CURL_READFUNC_ABORT)
    }
    return read
}

func transferSeekBody(_ context: UnsafeMutableRawPointer?, _ offset: curl_off_t, _ origin: Int32) -> Int32 {
    guard let context, origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
    // Refusing makes curl fail with CURLE_SEND_FAIL_REWIND rather than send the body again.
    guard Transfer.from(context).request.mayResendBody else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
    return Transfer.from(context).body.rewind(to: Int64(offset)) ? Int32(CURL_SEEKFUNC_OK) : Int32(CURL_SEEKFUNC_FAIL)
}

func transferProgress(
    _ context: UnsafeMutableRawPointer?,
    _ totalToReceive: curl_off_t,
    _ received: curl_off_t,
    _ totalToSend: curl_off_t,
    _ sent: curl_off_t
) -> Int32 {
    guard let context else { return 0 }
    let transfer = Transfer.from(context)
    let expected = totalToSend > 0 ? Int64(totalToSend) : transfer.body.length
    transfer.report(
        HTTPProgress(
            bytesSent: Int64(sent),
            totalToSend: expected,
            bytesReceived: Int64(received),
            totalToReceive: Int64(totalToReceive)
        )
    )
    return 0
}

func transferOpenSocket(
    _ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype, _ address: UnsafeMutablePointer<curl_sockaddr>?
) -> curl_socket_t {
    guard let context, let address else { return CURL_SOCKET_BAD }
    // The address runs past the declared `struct sockaddr` (curl keeps a `sockaddr_storage`):
    // read it in place, `addrlen` bytes from the field's offset.
    let offset = MemoryLayout<curl_sockaddr>.offset(of: \.addr) ?? 0
    return Transfer.from(context).openSocket(
        family: address.pointee.family, type: address.pointee.socktype, protocol: address.pointee.protocol,
        address: UnsafeRawPointer(address) + offset, length: Int(address.pointee.addrlen))
}

/// Tells curl not to connect a socket `transferOpenSocket` took from the connections opened ahead.
func transferSocketOptions(_ context: UnsafeMutableRawPointer?, _ descriptor: curl_socket_t, _ purpose: curlsocktype)
    -> Int32
{
    guard let context, Transfer.from(context).isWarm(descriptor) else { return Int32(CURL_SOCKOPT_OK) }
    return Int32(CURL_SOCKOPT_ALREADY_CONNECTED)
}
