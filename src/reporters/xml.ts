/** A tiny XML tree and its serialiser: every attribute and text escaped, so no server output can change the document's shape. */
import { safeText } from './report-view.js';

/** An element with attributes and children. */
export interface XmlElement {
  name: string;
  attributes?: Record<string, string | number | undefined>;
  children?: XmlNode[];
}

/** A node of the tree: an element, escaped text, or a CDATA section. */
export type XmlNode = XmlElement | { text: string } | { cdata: string };

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Escapes text for an attribute value (whitespace too, so attribute normalisation keeps it). */
export function escapeAttribute(value: string): string {
  return safeText(value).replace(/[&<>"'\t\n\r]/g, (c) => ENTITIES[c] as string);
}

/** Escapes character data. */
function escapeText(value: string): string {
  return safeText(value).replace(/[&<>]/g, (c) => ENTITIES[c] as string);
}

/** A CDATA section; "]]>" inside is split across two sections so it cannot end the first one early. */
export function cdata(value: string): string {
  return `<![CDATA[${safeText(value).replace(/\r\n?/g, '\n').split(']]>').join(']]]]><![CDATA[>')}]]>`;
}

function serialiseNode(node: XmlNode, indent: string): string {
  if ('text' in node) return `${indent}${escapeText(node.text)}`;
  if ('cdata' in node) return `${indent}${cdata(node.cdata)}`;
  const attributes = Object.entries(node.attributes ?? {})
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join('');
  const children = node.children ?? [];
  if (children.length === 0) return `${indent}<${node.name}${attributes}/>`;
  // Character content is written inline: indentation inside it would change the text.
  if (children.every((child) => !('name' in child)))
    return `${indent}<${node.name}${attributes}>${children.map((c) => serialiseNode(c, '')).join('')}</${node.name}>`;
  const inner = children.map((child) => serialiseNode(child, `${indent}  `)).join('\n');
  return `${indent}<${node.name}${attributes}>\n${inner}\n${indent}</${node.name}>`;
}

/** Serialises a document: the XML declaration, then the root element. */
export function serialiseXml(root: XmlElement): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialiseNode(root, '')}\n`;
}
