/**
 * Published test data, transcribed by hand from the cited sources (never computed by our code).
 */

/** ZeroMQ RFC 32 (Z85) test vector, also in libzmq tests/test_base85.cpp. */
export const RFC32_HELLO_WORLD = { bytes: [0x86, 0x4f, 0xd2, 0x6f, 0xb5, 0x59, 0xf7, 0x5b], text: 'HelloWorld' };

/** libzmq tests/test_base85.cpp: boundary groups. "%nSc0" is 0xFFFFFFFF; "%nSc1" and "#####" overflow. */
export const LIBZMQ_MAX_GROUP = { bytes: [0xff, 0xff, 0xff, 0xff], text: '%nSc0' };
export const LIBZMQ_OVERFLOW_GROUPS = ['%nSc1', '#####'];

/** zmq_curve(7) "TEST KEY VALUES" (libzmq doc/zmq_curve.adoc): two CURVE key pairs in hex and Z85. */
export const ZMQ_CURVE_TEST_KEYS = {
  client: {
    publicHex: 'BB88471D65E2659B30C55A5321CEBB5AAB2B70A398645C26DCA2B2FCB43FC518',
    publicZ85: 'Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID',
    secretHex: '7BB864B489AFA3671FBE69101F94B38972F24816DFB01B51656B3FEC8DFD0888',
    secretZ85: 'D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs',
  },
  server: {
    publicHex: '54FCBA24E93249969316FB617C872BB0C1D1FF14800427C594CBFACF1BC2D652',
    publicZ85: 'rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7',
    secretHex: '8E0BDD697628B91D8F245587EE95C5B04D48963F79259877B49CD9063AEAD3B7',
    secretZ85: 'JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6',
  },
};
