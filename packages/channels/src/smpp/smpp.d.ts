// Minimal typings for the parts of `smpp` 0.5.1 (untyped CommonJS) this package uses.
declare module "smpp" {
  import type { EventEmitter } from "node:events";
  import type { LookupFunction, Server as NetServer, Socket } from "node:net";

  namespace smpp {
    /** Decoded short_message / message_payload (the package splits the UDH off and decodes the text). */
    interface DecodedMessage {
      message: string | Buffer;
      udh?: Buffer[];
    }

    class PDU {
      constructor(command: string, options?: Record<string, unknown>);
      command: string;
      command_id: number;
      command_status: number;
      sequence_number: number;
      system_id?: string;
      password?: string;
      system_type?: string;
      message_id?: string;
      source_addr?: string;
      source_addr_ton?: number;
      source_addr_npi?: number;
      destination_addr?: string;
      esm_class?: number;
      data_coding?: number | null;
      registered_delivery?: number;
      short_message?: DecodedMessage | Buffer | string;
      message_payload?: DecodedMessage | Buffer | string;
      receipted_message_id?: string;
      message_state?: number;
      network_error_code?: Buffer;
      sar_msg_ref_num?: number;
      sar_total_segments?: number;
      sar_segment_seqnum?: number;
      isResponse(): boolean;
      response(options?: Record<string, unknown>): PDU;
      toBuffer(): Buffer;
    }

    interface SessionOptions {
      host?: string;
      port?: number;
      socket?: Socket;
      /** Passed to net.connect with host and port. */
      lookup?: LookupFunction;
    }

    class Session extends EventEmitter {
      constructor(options: SessionOptions);
      socket: Socket;
      server?: Server;
      /** Assigns sequence_number to requests; returns false (and sends nothing) when the socket is not writable. */
      send(pdu: PDU, responseCallback?: (pdu: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
      close(callback?: () => void): void;
      destroy(callback?: () => void): void;
    }

    class Server extends NetServer {
      sessions: Session[];
    }

    function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;
  }

  export = smpp;
}
